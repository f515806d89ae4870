//! # The group pool of the certified ascents
//!
//! Groups with their medoid and pair sum, so that re-pricing a group at new duals is O(|S|):
//! the model of the ascents (an upper estimate of the anchored bound, never a bound) and
//! the half-spaces `y(S) <= SSE(S)` that push-and-project brings a candidate onto, by cyclic
//! projections or by a covering LP of least total lowering ([`Projection`]).
//!
//! ## Complexity
//! `add` O(|S|^2 d); `estimate` one pass over the pool; `project` O(passes * sum |S|);
//! `project_lp` one HiGHS LP over the pool's negative groups.
//!
//! ## References
//! - Agmon, S. (1954). The relaxation method for linear inequalities. Canadian Journal of
//!   Mathematics 6, 382-392.

use super::super::pricing::{heuristic, Geometry};
use std::collections::HashSet;

/// Groups with their medoid and pair sum `P(S)`, so that re-pricing is O(|S|).
#[derive(Default)]
pub struct GroupPool {
    members: Vec<Vec<u32>>,
    medoid: Vec<u32>,
    pair_sum: Vec<f64>,
    known: HashSet<Vec<u32>>,
}

impl GroupPool {
    /// A pool holding `groups` (each sorted here; groups below `k` records left out).
    pub fn seeded(geo: &Geometry, groups: &[Vec<u32>]) -> GroupPool {
        let mut pool = GroupPool::default();
        for g in groups {
            let mut g = g.clone();
            g.sort_unstable();
            pool.add(geo, g);
        }
        pool
    }

    /// Add a group (members sorted ascending); false when already present.
    pub fn add(&mut self, geo: &Geometry, members: Vec<u32>) -> bool {
        if members.len() < geo.k || self.known.contains(&members) {
            return false;
        }
        let mut best = (f64::INFINITY, 0u32);
        let mut p = 0.0;
        for &a in &members {
            let row: f64 = members.iter().map(|&b| geo.d(a as usize, b as usize)).sum();
            p += row;
            if row < best.0 {
                best = (row, a);
            }
        }
        self.known.insert(members.clone());
        self.members.push(members);
        self.medoid.push(best.1);
        self.pair_sum.push(p / 2.0);
        true
    }

    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// The groups in the order added (members ascending).
    pub fn groups(&self) -> &[Vec<u32>] {
        &self.members
    }

    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Heuristic pricing at `y` from every record: the pool takes each group found with
    /// reduced cost below `-tol`. Returns how many were new (they are the pool's last groups).
    pub fn add_heuristic_negatives(&mut self, geo: &Geometry, y: &[f64], tol: f64) -> usize {
        let before = self.len();
        for r in 0..geo.n {
            if let Some((rc, members)) = heuristic(geo, y, r) {
                if rc < -tol {
                    self.add(geo, members);
                }
            }
        }
        self.len() - before
    }

    /// Estimated anchored Lagrangian value at `y` (not a bound): `sum y` plus the
    /// `groups_max` most negative per-medoid minima over the pool; returns it with the
    /// indices of the chosen groups.
    pub fn estimate(&self, y: &[f64], groups_max: usize) -> (f64, Vec<usize>) {
        let mut per_medoid: Vec<(f64, usize)> = vec![(0.0, usize::MAX); y.len()];
        for (j, g) in self.members.iter().enumerate() {
            let rc =
                self.pair_sum[j] / g.len() as f64 - g.iter().map(|&i| y[i as usize]).sum::<f64>();
            let slot = &mut per_medoid[self.medoid[j] as usize];
            if rc < slot.0 {
                *slot = (rc, j);
            }
        }
        let mut neg: Vec<(f64, usize)> = per_medoid
            .into_iter()
            .filter(|&(_, j)| j != usize::MAX)
            .collect();
        neg.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        neg.truncate(groups_max);
        let est = y.iter().sum::<f64>() + neg.iter().map(|v| v.0).sum::<f64>();
        (est, neg.into_iter().map(|v| v.1).collect())
    }
}

impl GroupPool {
    /// Cyclic projections of `y` onto the half-spaces `y(S) <= SSE(S)` of the pool's groups
    /// (Kaczmarz / Agmon: a group with `rc(S) < 0` lowers each member's dual by `-rc(S)/|S|`,
    /// the Euclidean projection onto its half-space), at most `passes` sweeps, stopping when
    /// no group is below `-tol`. Returns the most negative reduced cost left.
    pub fn project(&self, y: &mut [f64], passes: usize, tol: f64) -> f64 {
        let mut worst = 0.0f64;
        for _ in 0..passes {
            worst = 0.0;
            for (j, g) in self.members.iter().enumerate() {
                let rc = self.pair_sum[j] / g.len() as f64
                    - g.iter().map(|&i| y[i as usize]).sum::<f64>();
                if rc < -tol {
                    worst = worst.min(rc);
                    let drop = -rc / g.len() as f64;
                    for &i in g {
                        y[i as usize] -= drop;
                    }
                }
            }
            if worst >= -tol {
                break;
            }
        }
        worst
    }

    /// Lowers `y` as little as possible in total (least `sum z`, `y - z`, `z >= 0`) so that
    /// every group of the pool has `rc(S) >= 0`: a covering LP over the groups negative at
    /// `y` (HiGHS simplex; groups not negative at `y` stay so since duals only fall), then
    /// [`GroupPool::project`] clears what HiGHS' tolerances leave. Keeps more of `sum y` than
    /// the cyclic projections alone. `None` when HiGHS fails (`y` untouched). Returns the
    /// most negative reduced cost left.
    pub fn project_lp(&self, y: &mut [f64], tol: f64) -> Option<f64> {
        use highs::{ColProblem, HighsModelStatus, Model, Sense};
        let violated: Vec<(usize, f64)> = self
            .members
            .iter()
            .enumerate()
            .filter_map(|(j, g)| {
                let rc = self.pair_sum[j] / g.len() as f64
                    - g.iter().map(|&i| y[i as usize]).sum::<f64>();
                (rc < -tol).then_some((j, -rc))
            })
            .collect();
        if violated.is_empty() {
            return Some(0.0);
        }
        // Columns: the records of the violated groups, each with its rows.
        let mut rows_of: std::collections::BTreeMap<u32, Vec<usize>> = Default::default();
        for (r, &(j, _)) in violated.iter().enumerate() {
            for &i in &self.members[j] {
                rows_of.entry(i).or_default().push(r);
            }
        }
        // Right sides scaled by a power of two (exact) to about 1: HiGHS' tolerances are
        // absolute, and the violations may be of any magnitude.
        let largest = violated.iter().map(|&(_, v)| v).fold(0.0, f64::max);
        let scale = crate::sse::pow2_near(1.0 / largest);
        let mut pb = ColProblem::default();
        let rows: Vec<_> = violated
            .iter()
            .map(|&(_, v)| pb.add_row(v * scale..))
            .collect();
        for rs in rows_of.values() {
            pb.add_column(1.0, 0.0.., rs.iter().map(|&r| (rows[r], 1.0)));
        }
        let mut model = Model::try_new(pb).ok()?;
        model.make_quiet();
        model.set_sense(Sense::Minimise);
        let solved = model.try_solve().ok()?;
        if solved.status() != HighsModelStatus::Optimal {
            return None;
        }
        let z = solved.get_solution().columns().to_vec();
        if z.len() != rows_of.len() {
            return None;
        }
        for (&i, &zi) in rows_of.keys().zip(&z) {
            y[i as usize] -= zi.max(0.0) / scale;
        }
        Some(self.project(y, 30, tol))
    }
}

/// How push-and-project brings a candidate onto the pool's half-spaces `y(S) <= SSE(S)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Projection {
    /// Cyclic projections of the candidate in place ([`GroupPool::project`]).
    #[default]
    Cyclic,
    /// The least total lowering of the unprojected candidate ([`GroupPool::project_lp`]),
    /// cyclic projections where HiGHS fails.
    LeastLowering,
}

/// Brings the candidate onto the pool's half-spaces: `cand` (already lowered by earlier
/// projections at this step) in place for [`Projection::Cyclic`], from the unprojected
/// `raw` for [`Projection::LeastLowering`]. Returns the most negative reduced cost left.
pub(super) fn project_candidate(
    pool: &GroupPool,
    how: Projection,
    raw: &[f64],
    cand: &mut [f64],
    tol: f64,
) -> f64 {
    if how == Projection::LeastLowering {
        let mut y = raw.to_vec();
        if let Some(left) = pool.project_lp(&mut y, tol) {
            cand.copy_from_slice(&y);
            return left;
        }
    }
    pool.project(cand, 30, tol)
}
