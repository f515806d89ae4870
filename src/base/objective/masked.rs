//! # Masked move deltas (data with missing cells)
//!
//! On an instance with missing cells the objective is the masked SSE: per group g and
//! column j the squared deviations of the observed cells from their mean m_gj
//! (`crate::missing`). The [`Partition`] of such an instance keeps the masked means as its
//! centroids and recomputes the two groups of every applied move; [`MaskedSums`] adds the
//! per group and column observed counts c_gj, and prices a move over the observed cells
//! only (`proofs/P42-masked-deltas.md`):
//!
//! - shift of x from A to B: sum over the columns x observes of
//!   [c_B > 0] c_B / (c_B + 1) (x_j - m_Bj)^2 - [c_A > 1] c_A / (c_A - 1) (x_j - m_Aj)^2;
//! - swap of x in A with y in B, per column: both observed: (y - m_A)^2 - (x - m_A)^2 -
//!   (x - y)^2 / c_A plus the same for B; only one observed: that record's shift term;
//!   none: 0.
//!
//! A move counts as improving when it lowers the masked SSE by more than
//! `IMPROVE_EPS SST / n` (the masked SST).
//!
//! ## Complexity
//! O(n d) to build; O(d) per delta; O(|G| d) to refresh group G.
//!
//! ## References
//! Gower (1971), Biometrics 27(4) (statistics over the observed variables).

use crate::data::Instance;
use crate::partition::Partition;

/// Per group slot and column, the number of members that observe the column.
#[derive(Debug, Clone)]
pub struct MaskedSums {
    d: usize,
    count: Vec<usize>,
}

impl MaskedSums {
    /// The counts of partition `p` of `inst`.
    pub fn new(inst: &Instance, p: &Partition) -> Self {
        let mut s = MaskedSums {
            d: inst.d,
            count: vec![0; p.slots() * inst.d],
        };
        for g in 0..p.slots() {
            s.refresh(inst, p, g);
        }
        s
    }

    /// Recount group `g`'s observed cells per column.
    pub fn refresh(&mut self, inst: &Instance, p: &Partition, g: usize) {
        let members = p.members(g);
        for j in 0..self.d {
            self.count[g * self.d + j] =
                members.iter().filter(|&&i| !inst.is_missing(i, j)).count();
        }
    }

    /// Change of the masked SSE if record `i` moved to group `to`.
    pub fn shift_delta(&self, inst: &Instance, p: &Partition, i: usize, to: usize) -> f64 {
        let from = p.group_of(i);
        if from == to {
            return 0.0;
        }
        let mut delta = 0.0;
        for j in (0..self.d).filter(|&j| !inst.is_missing(i, j)) {
            let v = inst.row(i)[j];
            delta += self.join_term(p, to, j, v) - self.leave_term(p, from, j, v);
        }
        delta
    }

    /// Change of the masked SSE if records `i` and `j` exchanged groups.
    pub fn swap_delta(&self, inst: &Instance, p: &Partition, i: usize, j: usize) -> f64 {
        let (a, b) = (p.group_of(i), p.group_of(j));
        if a == b {
            return 0.0;
        }
        let mut delta = 0.0;
        for t in 0..self.d {
            let (x, y) = (inst.row(i)[t], inst.row(j)[t]);
            delta += match (!inst.is_missing(i, t), !inst.is_missing(j, t)) {
                (true, true) => {
                    let (ma, mb) = (p.centroid(a)[t], p.centroid(b)[t]);
                    let (ca, cb) = (self.count_of(a, t), self.count_of(b, t));
                    let xy = (x - y).powi(2);
                    (y - ma).powi(2) - (x - ma).powi(2) - xy / ca + (x - mb).powi(2)
                        - (y - mb).powi(2)
                        - xy / cb
                }
                (true, false) => self.join_term(p, b, t, x) - self.leave_term(p, a, t, x),
                (false, true) => self.join_term(p, a, t, y) - self.leave_term(p, b, t, y),
                (false, false) => 0.0,
            };
        }
        delta
    }

    fn count_of(&self, g: usize, j: usize) -> f64 {
        self.count[g * self.d + j] as f64
    }

    /// SSE added to group g's column j when a value v joins it.
    fn join_term(&self, p: &Partition, g: usize, j: usize, v: f64) -> f64 {
        let c = self.count_of(g, j);
        if c > 0.0 {
            c / (c + 1.0) * (v - p.centroid(g)[j]).powi(2)
        } else {
            0.0
        }
    }

    /// SSE removed from group g's column j when its value v leaves it.
    fn leave_term(&self, p: &Partition, g: usize, j: usize, v: f64) -> f64 {
        let c = self.count_of(g, j);
        if c > 1.0 {
            c / (c - 1.0) * (v - p.centroid(g)[j]).powi(2)
        } else {
            0.0
        }
    }
}
