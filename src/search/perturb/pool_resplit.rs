//! # Pool and re-split
//!
//! ILS's main perturbation, which changes the number of groups locally: take a random
//! record, pool the records of its group and of the next t - 1 distinct groups among its
//! nearest neighbours (or, with `pool = "centroids"`, of the groups of nearest centroid;
//! t uniform in `min_pool..=max_pool`), and re-split the pool into t - 1, t or t + 1 groups
//! (chosen uniformly among those that keep every group at k or more records), each carved
//! from a random start by nearest-to-centroid growth (`carve`; `carves` carvings are
//! tried and the one of lowest SSE is applied). With `settle`, a few best-improvement
//! passes among the pool's own groups follow. Every record of the pool is queued for the
//! descent.
//!
//! ## Complexity
//! O(P^2 d / k) per perturbation for a pool of P records (times `carves`), plus
//! O(settle P G d) for the settling passes over G pooled groups.
//!
//! ## References
//! - Laszlo, M. and Mukherjee, S. (2015). Iterated local search for microaggregation.
//!   Journal of Systems and Software 100, 15-26.

use super::{Perturb, Workspace};
use crate::data::Instance;
use crate::method::Ctx;
use crate::partition::{group_stats, sq_dist, Partition};
use crate::search::moves::fresh_slot;
use crate::search::moves::split::carve;
use rand::Rng as _;
use serde::{Deserialize, Serialize};

/// Sizes of the groups a pool of m records is re-split into (q groups, m >= q k).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sizes {
    /// As equal as possible: m / q, the first m % q groups one more.
    Balanced,
    /// k each, the m - q k others given one at a time to uniformly random groups.
    Random,
}

/// Which groups a perturbation pools with the random record's group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PoolBy {
    /// The groups of the record's nearest records.
    Records,
    /// The groups whose centroids are nearest to the record's group centroid.
    Centroids,
}

/// Parameters of `pool_resplit` (ILS's flat keys of the same names set them too).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct PoolResplitParams {
    pub min_pool: usize,
    pub max_pool: usize,
    pub pool: PoolBy,
    pub sizes: Sizes,
    pub carves: usize,
    pub settle: usize,
}

impl Default for PoolResplitParams {
    fn default() -> Self {
        PoolResplitParams {
            min_pool: 2,
            max_pool: 12,
            pool: PoolBy::Records,
            sizes: Sizes::Balanced,
            carves: 1,
            settle: 0,
        }
    }
}

impl crate::params::Params for PoolResplitParams {
    const DOC: &'static [(&'static str, &'static str)] = &[
        ("min_pool", "fewest groups pooled and re-split (default 2)"),
        ("max_pool", "most groups pooled and re-split (default 12)"),
        ("pool", "which groups are pooled with the random record's group: \"records\" (default) the groups of its nearest records, \"centroids\" the groups of nearest centroid"),
        ("sizes", "group sizes of the re-split pool: \"balanced\" (default) as equal as possible, \"random\" k each plus the remainder spread at random"),
        ("carves", "random re-splits tried, 1..=10000; the one of lowest SSE is applied (default 1)"),
        ("settle", "passes of a best-improvement shift/swap descent among the pool's own groups after the re-split (0 = none; default 0)"),
    ];
    fn check(&self) -> Result<(), String> {
        if self.min_pool < 1 || self.max_pool < self.min_pool {
            return Err("need 1 <= min_pool <= max_pool".into());
        }
        if !(1..=10_000).contains(&self.carves) {
            return Err("carves must be in 1..=10000".into());
        }
        Ok(())
    }
}

/// The pool-and-re-split perturbation with its parameters (ILS's of the same names).
#[derive(Debug, Clone)]
pub(crate) struct PoolResplit {
    pub min_pool: usize,
    pub max_pool: usize,
    pub pool_by: PoolBy,
    pub sizes: Sizes,
    pub carves: usize,
    pub settle: usize,
    /// Perturbations applied.
    pub applied: u64,
    pool: Vec<usize>,
    ranked: Vec<(f64, usize)>,
}

impl PoolResplit {
    pub fn new(
        min_pool: usize,
        max_pool: usize,
        pool_by: PoolBy,
        sizes: Sizes,
        carves: usize,
        settle: usize,
    ) -> Self {
        PoolResplit {
            min_pool,
            max_pool,
            pool_by,
            sizes,
            carves,
            settle,
            applied: 0,
            pool: Vec::new(),
            ranked: Vec::new(),
        }
    }

    pub(crate) fn from_params(p: PoolResplitParams) -> Self {
        Self::new(p.min_pool, p.max_pool, p.pool, p.sizes, p.carves, p.settle)
    }

    /// Pool the groups around record `r` and re-split them; false if nothing was changed.
    fn pool_and_resplit(
        &mut self,
        p: &mut Partition,
        ctx: &mut Ctx,
        r: usize,
        ws: &mut Workspace,
    ) -> bool {
        let (inst, k) = (ctx.inst, ctx.k);
        let nb = ws.nb;
        let want = ctx.rng.random_range(self.min_pool..=self.max_pool);
        ws.groups.clear();
        let g = p.group_of(r);
        ws.groups.push(g);
        if self.pool_by == PoolBy::Centroids {
            let c = p.centroid(g);
            self.ranked.clear();
            self.ranked.extend(
                (0..p.slots())
                    .filter(|&h| h != g && p.size(h) > 0)
                    .map(|h| (sq_dist(c, p.centroid(h)), h)),
            );
            let take = (want - 1).min(self.ranked.len());
            if take > 0 && take < self.ranked.len() {
                self.ranked.select_nth_unstable_by(take - 1, |a, b| {
                    a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
                });
            }
            ws.groups.extend(self.ranked[..take].iter().map(|x| x.1));
        } else {
            for &j in nb.of(r) {
                if ws.groups.len() >= want {
                    break;
                }
                let h = p.group_of(j as usize);
                if !ws.groups.contains(&h) {
                    ws.groups.push(h);
                }
            }
        }
        self.pool.clear();
        for &g in &*ws.groups {
            self.pool.extend_from_slice(p.members(g));
        }
        self.pool.sort_unstable();
        let t = ws.groups.len();
        let m = self.pool.len();
        let mut options = [0usize; 3];
        let mut count = 0;
        for q in [t.saturating_sub(1), t, t + 1] {
            if q >= 1 && q * k <= m && !(q == 1 && t == 1) {
                options[count] = q;
                count += 1;
            }
        }
        if count == 0 {
            return false;
        }
        let q = options[ctx.rng.random_range(0..count)];
        let sizes: Vec<usize> = match self.sizes {
            Sizes::Balanced => {
                let (base, extra) = (m / q, m % q);
                (0..q).map(|g| base + usize::from(g < extra)).collect()
            }
            Sizes::Random => {
                let mut sizes = vec![k; q];
                for _ in q * k..m {
                    sizes[ctx.rng.random_range(0..q)] += 1;
                }
                sizes
            }
        };
        // Best of `carves` random carvings (the first one wins ties).
        let mut parts = Vec::new();
        let mut parts_sse = f64::INFINITY;
        for _ in 0..self.carves {
            let cand = carve(inst, &self.pool, &sizes, Some(&mut *ctx.rng));
            let sse = if self.carves == 1 {
                0.0
            } else {
                cand.iter().map(|g| group_stats(inst, g).1).sum()
            };
            if sse < parts_sse {
                parts = cand;
                parts_sse = sse;
            }
        }
        for (idx, part) in parts.iter().enumerate() {
            let slot = if idx < t {
                ws.groups[idx]
            } else {
                fresh_slot(p, ws.spare)
            };
            for &i in part {
                ws.log.shift(p, inst, i, slot);
            }
            if idx >= t {
                ws.groups.push(slot);
            }
        }
        self.settle_pool(p, inst, k, ws);
        let ls = &mut *ws.ls;
        for &i in &self.pool {
            ls.push(i);
        }
        true
    }

    /// Up to `settle` passes over the pool records, each applying a record's best improving
    /// shift or swap among the pool's groups (`ws.groups`); stops early at a pass without
    /// a move. Cheaper than letting the neighbour-list descent repair a random carving.
    fn settle_pool(&mut self, p: &mut Partition, inst: &Instance, k: usize, ws: &mut Workspace) {
        let ls = &mut *ws.ls;
        for _ in 0..self.settle {
            let mut moved = false;
            for &i in &self.pool {
                let best = ls.best_move(p, inst, k, ws.nb, i, &*ws.groups, false);
                if let Some((_, mv)) = best.found {
                    ls.apply_move(p, inst, best.op, mv, ws.log);
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
    }
}

impl Perturb for PoolResplit {
    fn name(&self) -> &'static str {
        "pool_resplit"
    }
    fn perturb(&mut self, p: &mut Partition, ctx: &mut Ctx, r: usize, ws: &mut Workspace) -> bool {
        let done = self.pool_and_resplit(p, ctx, r, ws);
        self.applied += u64::from(done);
        done
    }
    fn add_stats(&self, stats: &mut crate::method::Stats) {
        stats.add("pool_resplit_applications", self.applied);
    }
}
