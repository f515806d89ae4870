//! # Cold build of the sparse assignment LP: candidate arcs
//!
//! Step 1 of [`super`]: each record's `record_candidates` nearest centres, each centre's
//! `centre_candidates` nearest records (so every centre can reach `lo` records) and the arcs
//! of the optional feasible `hint`, loaded into a fresh HiGHS model over those columns.
//! Moved out of [`super`] unchanged; pricing and warm starts stay there.
//!
//! ## Complexity
//! O(n c d) for the distances plus O(n c) for the selections (`select_nth_unstable`); the
//! model has n + c rows and one column per candidate arc.
//!
//! ## References
//! - Chvatal, V. (1983). Linear Programming. Freeman (restricted master and column
//!   generation, Ch. 7-8).

use super::super::sq_dist;
use super::{arc_cost, set_option, AssignmentError, AssignmentSolver};
use highs::{ColProblem, Model, Sense};
use std::time::Instant;

impl AssignmentSolver {
    /// Build a new model over the candidate arcs.
    pub(super) fn build_cold(
        &mut self,
        x: &[f64],
        centres: &[f64],
        n: usize,
        c: usize,
        hint: Option<&[usize]>,
        record_candidates: usize,
    ) -> Result<(), AssignmentError> {
        let t = Instant::now();
        let d = self.d;
        self.reset();
        self.in_model = vec![0u64; (n * c).div_ceil(64)];
        let mut arcs: Vec<(u32, u32)> = Vec::new();
        let mut push = |in_model: &mut [u64], i: usize, j: usize| {
            let b = i * c + j;
            if in_model[b / 64] >> (b % 64) & 1 == 0 {
                in_model[b / 64] |= 1 << (b % 64);
                arcs.push((i as u32, j as u32));
            }
        };
        let r = record_candidates.min(c);
        let mut dist: Vec<(f64, usize)> = Vec::with_capacity(c.max(n));
        for i in 0..n {
            let xi = &x[i * d..(i + 1) * d];
            dist.clear();
            dist.extend(
                centres
                    .chunks_exact(d)
                    .enumerate()
                    .map(|(j, cj)| (sq_dist(xi, cj), j)),
            );
            for &(_, j) in nearest(&mut dist, r) {
                push(&mut self.in_model, i, j);
            }
        }
        let s = if self.opts.centre_candidates == 0 {
            self.hi
        } else {
            self.opts.centre_candidates
        }
        .min(n);
        for j in 0..c {
            let cj = &centres[j * d..(j + 1) * d];
            dist.clear();
            dist.extend(
                x.chunks_exact(d)
                    .enumerate()
                    .map(|(i, xi)| (sq_dist(xi, cj), i)),
            );
            for &(_, i) in nearest(&mut dist, s) {
                push(&mut self.in_model, i, j);
            }
        }
        if let Some(h) = hint {
            for (i, &j) in h.iter().enumerate() {
                push(&mut self.in_model, i, j);
            }
        }
        let mut pb = ColProblem::default();
        let record_rows: Vec<_> = (0..n).map(|_| pb.add_row(1.0..=1.0)).collect();
        let centre_rows: Vec<_> = (0..c)
            .map(|_| pb.add_row(self.lo as f64..=self.hi as f64))
            .collect();
        for &(i, j) in &arcs {
            let w = arc_cost(x, centres, d, self.cost, i as usize, j as usize);
            pb.add_column(
                w,
                0.0..,
                [
                    (record_rows[i as usize], 1.0),
                    (centre_rows[j as usize], 1.0),
                ],
            );
        }
        let mut model = Model::try_new(pb).map_err(|s| AssignmentError::Lp {
            message: format!("could not load the restricted model: {s:?}"),
        })?;
        model.set_sense(Sense::Minimise);
        set_option(&mut model, "solver", "simplex")?;
        set_option(&mut model, "presolve", "off")?;
        set_option(&mut model, "dual_feasibility_tolerance", 1e-9)?;
        set_option(&mut model, "primal_feasibility_tolerance", 1e-9)?;
        self.model = Some(model);
        self.arcs = arcs;
        self.shape = (n, c);
        self.totals.build_seconds += t.elapsed().as_secs_f64();
        Ok(())
    }
}

/// The `m` entries of least distance of `dist` (distance, index) in no particular order,
/// ties to the lower index; all of them when `m` is at least their number. Reorders `dist`.
fn nearest(dist: &mut [(f64, usize)], m: usize) -> &[(f64, usize)] {
    if m < dist.len() {
        dist.select_nth_unstable_by(m - 1, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    }
    &dist[..m]
}
