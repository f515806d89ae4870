//! # Utility (information loss) measures
//!
//! How far the released values `y` are from the original values `x` (both n x p, original
//! units, row-major), as defined in the SDC literature and in sdcMicro's `dUtility`:
//!
//! - `il_sse` = 100 * sum_ij ((x_ij - y_ij) / sigma_j)^2 / SST, sigma_j the population
//!   standard deviation of original column j and SST = sum_ij ((x_ij - mean_j) / sigma_j)^2
//!   (= n p): the workbench's IL, equal to the partition's IL when `y` holds the group means.
//! - `il1s` (Mateo-Sanz, Sebe & Domingo-Ferrer 2004) = 1/(n p) sum_ij |x_ij - y_ij| /
//!   (sqrt(2) S_j), S_j the sample standard deviation (n - 1) of original column j.
//!   `il1s_sdcmicro` is sdcMicro's `dUtility(method = "IL1s")`: the same sum *without* the
//!   1/(n p) factor (sdcMicro keeps the averaged form as its `"IL1old"`).
//! - `mean_change_percent`, `variance_change_percent`, `covariance_change_percent` (IL2,
//!   IL4, IL3 of Domingo-Ferrer, Mateo-Sanz & Torra 2001): the average over columns (over
//!   pairs i <= j for covariances) of 100 |s(y) - s(x)| / |s(x)|, statistics with divisor
//!   n - 1; entries with s(x) = 0 are left out (`zero_denominators` counts them).
//! - `correlation_change` (IL5 of the same paper): the mean over pairs i < j of
//!   |r_ij(y) - r_ij(x)|; `None` when a released column is constant or p = 1.
//! - `eigen_sdcmicro`: sdcMicro's `dUtility(method = "eigen")`, sum_j |e_j - e'_j| / e_j over
//!   the eigenvalues (decreasing) of the correlation matrices of `x` and `y`; `None` also
//!   when the original's correlation matrix is singular to working precision (its smallest
//!   eigenvalue at most 64 p eps times the largest): a quotient by an eigenvalue that is
//!   round-off is noise (sdcMicro prints it; Census, `docs/measures.md`).
//!
//! ## Complexity
//! O(n p^2) for the covariance matrices, O(p^3) for the eigenvalues.
//!
//! ## References
//! Domingo-Ferrer, Mateo-Sanz & Torra (2001), Comparing SDC methods for microdata on the
//! basis of information loss and disclosure risk, Proc. ETK-NTTS 2001, Eurostat.
//! Mateo-Sanz, Sebe & Domingo-Ferrer (2004), Outlier protection in continuous microdata
//! masking, PSD 2004, LNCS 3050, 201-215. sdcMicro (Templ, Kowarik & Meindl), `R/dUtility.R`.

use super::stats;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Per-column summary of the original and released values.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct ColumnChange {
    pub column: String,
    pub mean: f64,
    pub mean_released: f64,
    /// Sample variances (divisor n - 1).
    pub variance: f64,
    pub variance_released: f64,
}

/// The utility measures of a released file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct Utility {
    pub il_sse: f64,
    pub il1s: f64,
    pub il1s_sdcmicro: f64,
    pub mean_change_percent: Option<f64>,
    pub variance_change_percent: Option<f64>,
    pub covariance_change_percent: Option<f64>,
    pub correlation_change: Option<f64>,
    pub eigen_sdcmicro: Option<f64>,
    /// Statistics of the original file that are zero and were left out of the relative
    /// changes.
    pub zero_denominators: usize,
    pub columns: Vec<ColumnChange>,
}

/// Mean of 100 |b - a| / |a| over pairs with a != 0; the count of a == 0 is added to `zeros`.
fn mean_relative_change(pairs: &[(f64, f64)], zeros: &mut usize) -> Option<f64> {
    let kept: Vec<f64> = pairs
        .iter()
        .filter(|(a, _)| {
            let zero = *a == 0.0;
            *zeros += zero as usize;
            !zero
        })
        .map(|(a, b)| 100.0 * (b - a).abs() / a.abs())
        .collect();
    (!kept.is_empty()).then(|| kept.iter().sum::<f64>() / kept.len() as f64)
}

/// The workbench's IL of released values: 100 sum_ij ((x_ij - y_ij) / sigma_j)^2 / SST with
/// the population standard deviations sigma_j of `x` and SST of its z-scores (n x p,
/// row-major). O(n p).
pub fn il_sse(x: &[f64], y: &[f64], p: usize) -> f64 {
    let n = x.len() / p;
    let (mut sse, mut sst) = (0.0, 0.0);
    for j in 0..p {
        let c = stats::column(x, p, j);
        let m = stats::mean(&c);
        let sigma = (c.iter().map(|v| (v - m).powi(2)).sum::<f64>() / n as f64).sqrt();
        for i in 0..n {
            sse += ((x[i * p + j] - y[i * p + j]) / sigma).powi(2);
            sst += ((x[i * p + j] - m) / sigma).powi(2);
        }
    }
    100.0 * sse / sst
}

/// The weighted IL of released values (`--weights`): `100 sum_i w_i sum_j ((x_ij - y_ij) /
/// sigma_j)^2 / sum_i w_i sum_j ((x_ij - m_j) / sigma_j)^2` with the population standard
/// deviations sigma_j of `x` (unweighted, as the z-scores) and its weighted means m_j. With
/// unit weights the operations of [`il_sse`], in the same order (the same bits). O(n p).
pub(crate) fn il_sse_weighted(x: &[f64], y: &[f64], p: usize, w: &[f64]) -> f64 {
    let n = x.len() / p;
    let total: f64 = w.iter().sum();
    let (mut sse, mut sst) = (0.0, 0.0);
    for j in 0..p {
        let c = stats::column(x, p, j);
        let m = stats::mean(&c);
        let sigma = (c.iter().map(|v| (v - m).powi(2)).sum::<f64>() / n as f64).sqrt();
        let mw = c.iter().zip(w).map(|(v, w)| w * v).sum::<f64>() / total;
        let mw = mw + c.iter().zip(w).map(|(v, w)| w * (v - mw)).sum::<f64>() / total;
        for i in 0..n {
            sse += w[i] * ((x[i * p + j] - y[i * p + j]) / sigma).powi(2);
            sst += w[i] * ((x[i * p + j] - mw) / sigma).powi(2);
        }
    }
    100.0 * sse / sst
}

/// Utility measures of `y` against `x` (n x p, row-major, same column order as `names`).
pub fn utility(x: &[f64], y: &[f64], p: usize, names: &[String]) -> Utility {
    let n = x.len() / p;
    let xc: Vec<Vec<f64>> = (0..p).map(|j| stats::column(x, p, j)).collect();
    let yc: Vec<Vec<f64>> = (0..p).map(|j| stats::column(y, p, j)).collect();
    let mut abs_sum = 0.0;
    for j in 0..p {
        let s = stats::sd(&xc[j]);
        for i in 0..n {
            abs_sum += (xc[j][i] - yc[j][i]).abs() / (s * std::f64::consts::SQRT_2);
        }
    }
    let cx = stats::cov_matrix(&xc);
    let cy = stats::cov_matrix(&yc);
    let columns: Vec<ColumnChange> = (0..p)
        .map(|j| ColumnChange {
            column: names[j].clone(),
            mean: stats::mean(&xc[j]),
            mean_released: stats::mean(&yc[j]),
            variance: cx[j * p + j],
            variance_released: cy[j * p + j],
        })
        .collect();
    let mut zeros = 0;
    let means: Vec<(f64, f64)> = columns.iter().map(|c| (c.mean, c.mean_released)).collect();
    let vars: Vec<(f64, f64)> = (0..p).map(|j| (cx[j * p + j], cy[j * p + j])).collect();
    let covs: Vec<(f64, f64)> = (0..p)
        .flat_map(|i| (i..p).map(move |j| (i, j)))
        .map(|(i, j)| (cx[i * p + j], cy[i * p + j]))
        .collect();
    let mean_change_percent = mean_relative_change(&means, &mut zeros);
    let variance_change_percent = mean_relative_change(&vars, &mut zeros);
    let covariance_change_percent = mean_relative_change(&covs, &mut zeros);
    let rx = stats::corr_from_cov(&cx, p);
    let ry = stats::corr_from_cov(&cy, p);
    let (correlation_change, eigen_sdcmicro) = match (&rx, &ry) {
        (Some(rx), Some(ry)) => {
            let pairs: Vec<f64> = (0..p)
                .flat_map(|i| (i + 1..p).map(move |j| (i, j)))
                .map(|(i, j)| (rx[i * p + j] - ry[i * p + j]).abs())
                .collect();
            let cc = (!pairs.is_empty()).then(|| pairs.iter().sum::<f64>() / pairs.len() as f64);
            let ex = stats::symmetric_eigenvalues(rx, p);
            let ey = stats::symmetric_eigenvalues(ry, p);
            let largest = ex.iter().fold(0.0f64, |m, &e| m.max(e.abs()));
            let round_off = 64.0 * p as f64 * f64::EPSILON * largest;
            let singular = ex.iter().any(|&e| e <= round_off);
            let eig = ex.iter().zip(&ey).map(|(a, b)| (a - b).abs() / a).sum();
            (cc, (!singular).then_some(eig))
        }
        _ => (None, None),
    };
    Utility {
        il_sse: il_sse(x, y, p),
        il1s: abs_sum / (n * p) as f64,
        il1s_sdcmicro: abs_sum,
        mean_change_percent,
        variance_change_percent,
        covariance_change_percent,
        correlation_change,
        eigen_sdcmicro,
        zero_denominators: zeros,
        columns,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * b.abs().max(1.0)
    }

    /// x = (1,2) (3,4) (5,8) (7,6); groups {0,1} {2,3} replaced by their means.
    /// By hand: both columns have SS = 20 (sample variance 20/3, population 5); every
    /// |x - y| is 1, so IL1s = 8 / (8 sqrt(2) sqrt(20/3)), sdcMicro's = 8 / (sqrt 2 sqrt(20/3));
    /// IL = 100 (4/5 + 4/5) / 8 = 20 %; released variances 16/3 (-20 % each), covariance
    /// 16/3 both (0 %), so IL3 = 40/3 %; correlation 0.8 -> 1; eigenvalues (1.8, 0.2) ->
    /// (2, 0): 0.2/1.8 + 0.2/0.2.
    #[test]
    fn hand_computed_example() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0, 8.0, 7.0, 6.0];
        let y = [2.0, 3.0, 2.0, 3.0, 6.0, 7.0, 6.0, 7.0];
        let u = utility(&x, &y, 2, &["a".into(), "b".into()]);
        let s = (20.0f64 / 3.0).sqrt() * std::f64::consts::SQRT_2;
        assert!(close(u.il_sse, 20.0), "{}", u.il_sse);
        assert!(close(u.il1s, 1.0 / s), "{}", u.il1s);
        assert!(close(u.il1s_sdcmicro, 8.0 / s));
        assert_eq!(u.mean_change_percent, Some(0.0));
        assert!(close(u.variance_change_percent.unwrap(), 20.0));
        assert!(close(u.covariance_change_percent.unwrap(), 40.0 / 3.0));
        assert!(close(u.correlation_change.unwrap(), 0.2));
        assert!(close(u.eigen_sdcmicro.unwrap(), 0.2 / 1.8 + 1.0));
        assert_eq!(u.zero_denominators, 0);
        assert!(close(u.columns[1].variance_released, 16.0 / 3.0));
    }

    #[test]
    fn unchanged_data_lose_nothing_and_constant_release_has_no_correlation() {
        let x = [1.0, 2.0, 3.0, 4.0, 5.0, 8.0, 7.0, 6.0];
        let u = utility(&x, &x, 2, &["a".into(), "b".into()]);
        assert_eq!((u.il_sse, u.il1s), (0.0, 0.0));
        assert_eq!(u.correlation_change, Some(0.0));
        // One group: every column released constant.
        let y = [4.0, 5.0, 4.0, 5.0, 4.0, 5.0, 4.0, 5.0];
        let u = utility(&x, &y, 2, &["a".into(), "b".into()]);
        assert!(close(u.il_sse, 100.0));
        assert_eq!((u.correlation_change, u.eigen_sdcmicro), (None, None));
        assert!(close(u.variance_change_percent.unwrap(), 100.0));
    }

    #[test]
    fn a_singular_original_correlation_matrix_has_no_eigen_measure() {
        // Rows (a, b) with b = 2 a: correlation eigenvalues (2, 0); the quotient by 0 is not
        // reported.
        let x = [1.0, 2.0, 2.0, 4.0, 3.0, 6.0, 4.0, 8.0];
        let y = [1.5, 2.0, 1.5, 5.0, 3.5, 6.0, 3.5, 7.0];
        let u = utility(&x, &y, 2, &["a".into(), "b".into()]);
        assert!(u.correlation_change.is_some());
        assert_eq!(u.eigen_sdcmicro, None);
        // The same release against a regular original keeps the measure.
        let x = [1.0, 5.0, 2.0, 8.0, 3.0, 7.0, 4.0, 6.0];
        assert!(utility(&x, &y, 2, &["a".into(), "b".into()])
            .eigen_sdcmicro
            .is_some());
    }
}
