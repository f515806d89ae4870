//! # Column statistics for the measures
//!
//! Means, sample (co)variances and correlations of column-major data, and the eigenvalues
//! of a small symmetric matrix by cyclic Jacobi rotations.
//!
//! ## Complexity
//! Covariance matrix O(n p^2); Jacobi O(p^3) per sweep, a few sweeps for p <= 50.
//!
//! ## References
//! Golub & Van Loan (2013), Matrix Computations, 4th ed., section 8.5 (Jacobi methods).

/// Column `j` of row-major `x` (n x p).
pub(crate) fn column(x: &[f64], p: usize, j: usize) -> Vec<f64> {
    x.iter().skip(j).step_by(p).copied().collect()
}

/// Arithmetic mean (two-pass corrected, so that a constant column has its value as mean).
pub fn mean(v: &[f64]) -> f64 {
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    m + v.iter().map(|x| x - m).sum::<f64>() / n
}

/// Covariance of two columns with divisor n - 1 (R's `var`, `cov`, `sd`).
pub(crate) fn cov(a: &[f64], b: &[f64]) -> f64 {
    let (ma, mb) = (mean(a), mean(b));
    let s: f64 = a.iter().zip(b).map(|(x, y)| (x - ma) * (y - mb)).sum();
    s / (a.len() as f64 - 1.0)
}

/// Sample standard deviation (divisor n - 1, as R's `sd`).
pub(crate) fn sd(v: &[f64]) -> f64 {
    cov(v, v).sqrt()
}

/// The p x p sample covariance matrix (row-major) of the columns.
pub(crate) fn cov_matrix(cols: &[Vec<f64>]) -> Vec<f64> {
    let p = cols.len();
    let mut c = vec![0.0; p * p];
    for i in 0..p {
        for j in i..p {
            let v = cov(&cols[i], &cols[j]);
            c[i * p + j] = v;
            c[j * p + i] = v;
        }
    }
    c
}

/// The correlation matrix from a covariance matrix; `None` when a variance is zero (a
/// constant column has no correlation).
pub(crate) fn corr_from_cov(c: &[f64], p: usize) -> Option<Vec<f64>> {
    if (0..p).any(|i| !(c[i * p + i] > 0.0)) {
        return None;
    }
    let mut r = vec![0.0; p * p];
    for i in 0..p {
        for j in 0..p {
            r[i * p + j] = if i == j {
                1.0
            } else {
                c[i * p + j] / (c[i * p + i] * c[j * p + j]).sqrt()
            };
        }
    }
    Some(r)
}

/// Eigenvalues of a symmetric p x p matrix (row-major), in decreasing order.
pub(crate) fn symmetric_eigenvalues(a: &[f64], p: usize) -> Vec<f64> {
    let mut m = a.to_vec();
    let norm: f64 = m.iter().map(|v| v * v).sum::<f64>().sqrt();
    for _sweep in 0..100 {
        let off: f64 = (0..p)
            .flat_map(|i| (0..p).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| m[i * p + j].powi(2))
            .sum::<f64>()
            .sqrt();
        if off <= 1e-15 * norm.max(f64::MIN_POSITIVE) {
            break;
        }
        for q in 0..p {
            for r in q + 1..p {
                let apq = m[q * p + r];
                if apq == 0.0 {
                    continue;
                }
                // The rotation that zeroes m[q][r] (Golub & Van Loan, Algorithm 8.5.1).
                let theta = (m[r * p + r] - m[q * p + q]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..p {
                    let (mkq, mkr) = (m[k * p + q], m[k * p + r]);
                    m[k * p + q] = c * mkq - s * mkr;
                    m[k * p + r] = s * mkq + c * mkr;
                }
                for k in 0..p {
                    let (mqk, mrk) = (m[q * p + k], m[r * p + k]);
                    m[q * p + k] = c * mqk - s * mrk;
                    m[r * p + k] = s * mqk + c * mrk;
                }
            }
        }
    }
    let mut e: Vec<f64> = (0..p).map(|i| m[i * p + i]).collect();
    e.sort_by(|a, b| b.total_cmp(a));
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eigenvalues_of_known_matrices() {
        let e = symmetric_eigenvalues(&[1.0, 0.8, 0.8, 1.0], 2);
        assert!(
            (e[0] - 1.8).abs() < 1e-14 && (e[1] - 0.2).abs() < 1e-14,
            "{e:?}"
        );
        // A 2 x 2 block (eigenvalues 3 and 1) beside a lone 5.
        let a = [2.0, 1.0, 0.0, 1.0, 2.0, 0.0, 0.0, 0.0, 5.0];
        let e = symmetric_eigenvalues(&a, 3);
        for (got, want) in e.iter().zip([5.0, 3.0, 1.0]) {
            assert!((got - want).abs() < 1e-13, "{e:?}");
        }
    }

    #[test]
    fn sample_statistics_use_n_minus_1() {
        let v = [1.0, 3.0, 5.0, 7.0];
        assert_eq!(mean(&v), 4.0);
        assert!((sd(&v) - (20.0f64 / 3.0).sqrt()).abs() < 1e-15);
        assert!(corr_from_cov(&cov_matrix(&[v.to_vec(), vec![2.0; 4]]), 2).is_none());
    }
}
