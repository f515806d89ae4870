//! # Size-constrained assignment of records to fixed centres (LP, HiGHS)
//!
//! Given n records and c fixed centres in R^d, assign every record to exactly one centre so
//! that every centre receives between `lo` and `hi` records, minimising the total cost
//! `sum_i w(i, label_i)`, where `w` is the Euclidean distance or the squared distance
//! ([`Cost`]). This is the assignment step of IMHM (Mortazavi, Jalili and Gohargazi 2013,
//! formulation (2), with `lo = k`, `hi = 2k - 1`).
//!
//! As an LP over variables `x_ij >= 0` (one per arc record i -> centre j):
//! `min sum w_ij x_ij` s.t. `sum_j x_ij = 1` for every record (row `i`) and
//! `lo <= sum_i x_ij <= hi` for every centre (row `n + j`). The constraint matrix is the
//! incidence matrix of a bipartite graph, hence totally unimodular, so every basic optimal
//! solution is integral (`proofs/P05-assignment-tu.md`). Every solve checks that: a value
//! farther than [`INTEGRALITY_TOL`] from 0 or 1 is an [`AssignmentError::Fractional`] error,
//! never silently rounded.
//!
//! Two models:
//! - [`solve_dense`] ([`dense`]): all n*c arcs, one-shot, through the safe `highs` API. For
//!   tests and small n (EIA at k = 3 would need 5.6 million columns).
//! - [`AssignmentSolver`] ([`sparse`]): a restricted model over candidate arcs (each record's
//!   nearest centres, each centre's nearest records, and the arcs of a feasible hint), solved,
//!   then every omitted arc is priced exactly by its reduced cost `w_ij - u_i - v_j` from the
//!   row duals; negative arcs are added and the model re-solved until none remains. The
//!   final pass proves the result optimal for the full LP
//!   (`proofs/P15-assignment-pricing.md`); the dual bound of that pass is returned as
//!   [`Assignment::lower_bound`]. The HiGHS model is kept between calls (warm start): when the
//!   centres move, the costs of all columns are replaced in one
//!   `Highs_changeColsCostByRange` call and the LP is re-solved by primal simplex from the
//!   previous basis, which stays primal feasible because only costs changed.
//!
//! Infeasible size bounds (`c * lo > n` or `c * hi < n`, or `lo > hi`) are reported before
//! any solve ([`AssignmentError::SizeBounds`]).
//!
//! ## Complexity
//! Building candidates and every pricing pass cost O(n c d) arithmetic (a pricing pass stops
//! computing a distance as soon as it exceeds the arc's threshold). The LP solves are
//! simplex runs on n + c rows and the candidate columns (typically a small multiple of n).
//!
//! ## References
//! - Mortazavi, R., Jalili, S. and Gohargazi, H. (2013). Multivariate microaggregation by
//!   iterative optimization. Applied Intelligence 39(3), 529-544 (formulation (2)).
//! - Schrijver, A. (1986). Theory of Linear and Integer Programming. Wiley (Sect. 19: total
//!   unimodularity of bipartite incidence matrices).
//! - Huangfu, Q. and Hall, J. A. J. (2018). Parallelizing the dual revised simplex method.
//!   Mathematical Programming Computation 10(1), 119-142 (HiGHS).

pub mod dense;
pub mod sparse;

pub use dense::solve_dense;
pub use sparse::{AssignmentOptions, AssignmentSolver};

use crate::error::SolverError;

/// A primal value farther than this from 0 and from 1 makes the solve fail as fractional.
pub const INTEGRALITY_TOL: f64 = 1e-6;

/// Cost of assigning a record to a centre.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Cost {
    /// Euclidean distance `||x - c||`: the IMHM paper's formulation (2).
    #[default]
    Distance,
    /// Squared distance `||x - c||^2`: the SSE of the assignment around fixed centres.
    SquaredDistance,
}

impl Cost {
    /// The cost of an arc whose squared distance is `sq`.
    #[inline]
    pub fn of_squared(self, sq: f64) -> f64 {
        match self {
            Cost::Distance => sq.sqrt(),
            Cost::SquaredDistance => sq,
        }
    }

    /// The squared-distance threshold below which the cost is below `t` (`t > 0`).
    #[inline]
    pub fn squared_threshold(self, t: f64) -> f64 {
        match self {
            Cost::Distance => t * t,
            Cost::SquaredDistance => t,
        }
    }

    /// Parse `distance` or `squared` (as used in parameter files).
    pub fn parse(s: &str) -> Option<Cost> {
        match s {
            "distance" => Some(Cost::Distance),
            "squared" | "squared-distance" => Some(Cost::SquaredDistance),
            _ => None,
        }
    }
}

/// Why an assignment could not be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AssignmentError {
    /// Bad data (dimension, non-finite value).
    #[error(transparent)]
    Input(#[from] SolverError),
    /// No centre, or no record.
    #[error("assignment needs records and centres (n = {n}, c = {c})")]
    Empty { n: usize, c: usize },
    /// No assignment satisfies the size bounds.
    #[error(
        "infeasible size bounds: {n} records cannot fill {c} centres with {lo}..={hi} records each (need c*lo <= n <= c*hi)"
    )]
    SizeBounds {
        n: usize,
        c: usize,
        lo: usize,
        hi: usize,
    },
    /// A hint labels a record with a centre that does not exist, or has the wrong length.
    #[error("hint: bad or missing centre for record {record}")]
    BadHint { record: usize },
    /// HiGHS failed or did not report an optimal solution.
    #[error("HiGHS: {message}")]
    Lp { message: String },
    /// The LP optimum was not integral (impossible for a correct TU model: a bug or a
    /// numerical failure).
    #[error(
        "LP optimum is fractional: x[record {record}, centre {centre}] = {value} (the model should be totally unimodular)"
    )]
    Fractional {
        record: usize,
        centre: usize,
        value: f64,
    },
}

/// An optimal integral assignment.
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    /// Centre of each record.
    pub labels: Vec<usize>,
    /// Total cost `sum_i w(i, labels[i])`, recomputed from the labels (compensated sum).
    pub objective: f64,
    /// Dual bound of the full LP from the final pricing pass (sparse model; for the dense
    /// model the dual objective of HiGHS' duals). `objective - lower_bound` is the proven gap.
    pub lower_bound: f64,
    /// LP solves (HiGHS runs) made for this assignment.
    pub lp_solves: usize,
    /// Pricing passes (each over every omitted arc).
    pub pricing_passes: usize,
    /// Columns in the model at the end.
    pub columns: usize,
    /// Simplex iterations over all runs of this call.
    pub simplex_iterations: i64,
    /// Seconds spent inside HiGHS.
    pub lp_seconds: f64,
}

/// Validate the data, the centres and the size bounds.
pub(crate) fn validate(
    x: &[f64],
    d: usize,
    centres: &[f64],
    lo: usize,
    hi: usize,
) -> Result<(usize, usize), AssignmentError> {
    if d == 0 || !x.len().is_multiple_of(d) {
        return Err(SolverError::BadDimension { len: x.len(), d }.into());
    }
    if !centres.len().is_multiple_of(d) {
        return Err(SolverError::BadDimension {
            len: centres.len(),
            d,
        }
        .into());
    }
    let (n, c) = (x.len() / d, centres.len() / d);
    if n == 0 || c == 0 {
        return Err(AssignmentError::Empty { n, c });
    }
    if let Some(index) = x.iter().position(|v| !v.is_finite()) {
        return Err(SolverError::NonFinite { index }.into());
    }
    if let Some(index) = centres.iter().position(|v| !v.is_finite()) {
        return Err(SolverError::NonFinite { index }.into());
    }
    check_size_bounds(n, c, lo, hi)?;
    Ok((n, c))
}

/// `c` centres with `lo..=hi` records each can hold exactly `n` records iff
/// `lo <= hi` and `c * lo <= n <= c * hi`.
pub fn check_size_bounds(n: usize, c: usize, lo: usize, hi: usize) -> Result<(), AssignmentError> {
    let fits = lo <= hi
        && c.checked_mul(lo).is_some_and(|m| m <= n)
        && c.checked_mul(hi).is_none_or(|m| m >= n);
    if fits {
        Ok(())
    } else {
        Err(AssignmentError::SizeBounds { n, c, lo, hi })
    }
}

pub(crate) use crate::sse::sq_dist;

/// Total cost of labels (Neumaier-compensated).
pub fn assignment_cost(x: &[f64], d: usize, centres: &[f64], labels: &[usize], cost: Cost) -> f64 {
    let mut sum = crate::segmentation::CompensatedSum::default();
    for (i, &j) in labels.iter().enumerate() {
        sum.add(cost.of_squared(sq_dist(
            &x[i * d..(i + 1) * d],
            &centres[j * d..(j + 1) * d],
        )));
    }
    sum.value()
}

/// Labels from the values of the arc columns; fails on a fractional value, a record with no
/// or two centres, or a centre outside its size bounds.
pub(crate) fn labels_from_solution(
    arcs: &[(u32, u32)],
    values: &[f64],
    n: usize,
    c: usize,
    lo: usize,
    hi: usize,
) -> Result<Vec<usize>, AssignmentError> {
    let mut labels = vec![usize::MAX; n];
    for (&(i, j), &v) in arcs.iter().zip(values) {
        let (i, j) = (i as usize, j as usize);
        if v.abs() <= INTEGRALITY_TOL {
            continue;
        }
        if (v - 1.0).abs() > INTEGRALITY_TOL {
            return Err(AssignmentError::Fractional {
                record: i,
                centre: j,
                value: v,
            });
        }
        if labels[i] != usize::MAX {
            return Err(AssignmentError::Lp {
                message: format!("record {i} assigned to centres {} and {j}", labels[i]),
            });
        }
        labels[i] = j;
    }
    if let Some(i) = labels.iter().position(|&l| l == usize::MAX) {
        return Err(AssignmentError::Lp {
            message: format!("record {i} assigned to no centre"),
        });
    }
    let mut sizes = vec![0usize; c];
    for &l in &labels {
        sizes[l] += 1;
    }
    if let Some(j) = sizes.iter().position(|&s| s < lo || s > hi) {
        return Err(AssignmentError::Lp {
            message: format!(
                "centre {j} received {} records, outside {lo}..={hi}",
                sizes[j]
            ),
        });
    }
    Ok(labels)
}

/// Dual objective of the LP for row duals `u` (records) and `v` (centres), lowered by
/// `n * max(0, -min_reduced_cost)` so that it bounds the LP optimum even when some arc's
/// reduced cost is slightly negative, and rounded outward for the floating-point error of
/// the reduced costs (`d` coordinates, costs up to `cost_scale`) and of the sum (P15).
pub(crate) fn dual_bound(
    u: &[f64],
    v: &[f64],
    lo: usize,
    hi: usize,
    min_rc: f64,
    d: usize,
    cost_scale: f64,
) -> f64 {
    let mut sum = crate::segmentation::CompensatedSum::default();
    let mut magnitude = 0.0;
    let mut dual_scale = 0.0f64;
    for &ui in u {
        sum.add(ui);
        magnitude += ui.abs();
        dual_scale = dual_scale.max(ui.abs());
    }
    let mut v_scale = 0.0f64;
    for &vj in v {
        let term = if vj > 0.0 {
            lo as f64 * vj
        } else {
            hi as f64 * vj
        };
        sum.add(term);
        magnitude += term.abs();
        v_scale = v_scale.max(vj.abs());
    }
    // A reduced cost w - u - v is computed with an error of at most about (d + 4) ulps of
    // the largest quantity involved (d products and sums for w, a square root, two
    // subtractions): widen the most negative one by that much.
    let eps = f64::EPSILON;
    let rc_error = 2.0 * (d as f64 + 4.0) * eps * (cost_scale + dual_scale + v_scale);
    let n = u.len() as f64;
    let rc_term = n * (min_rc.min(0.0) - rc_error);
    sum.add(rc_term);
    magnitude += rc_term.abs();
    // The compensated sum is accurate to a few ulps of the magnitude of its terms.
    sum.value() - 4.0 * eps * magnitude
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fractional_value_is_an_error_not_a_rounding() {
        // Two records, two centres, each centre 1 record: x = 1/2 everywhere is feasible
        // for the LP but is not a vertex; it must be reported, never rounded.
        let arcs = [(0, 0), (0, 1), (1, 0), (1, 1)];
        let half = [0.5, 0.5, 0.5, 0.5];
        assert!(matches!(
            labels_from_solution(&arcs, &half, 2, 2, 1, 1),
            Err(AssignmentError::Fractional {
                record: 0,
                centre: 0,
                ..
            })
        ));
        let ok = [1.0, 0.0, 1e-9, 1.0 - 1e-9];
        assert_eq!(
            labels_from_solution(&arcs, &ok, 2, 2, 1, 1).unwrap(),
            vec![0, 1]
        );
        // Size bounds are re-checked on the labels.
        let both_to_zero = [1.0, 0.0, 1.0, 0.0];
        assert!(matches!(
            labels_from_solution(&arcs, &both_to_zero, 2, 2, 1, 1),
            Err(AssignmentError::Lp { .. })
        ));
    }

    #[test]
    fn size_bounds() {
        assert!(check_size_bounds(10, 3, 3, 5).is_ok());
        assert!(check_size_bounds(10, 4, 3, 5).is_err()); // 12 > 10
        assert!(check_size_bounds(10, 1, 3, 5).is_err()); // 5 < 10
        assert!(check_size_bounds(10, 2, 6, 5).is_err()); // lo > hi
        assert!(check_size_bounds(10, usize::MAX, 1, 1).is_err()); // overflow
    }
}
