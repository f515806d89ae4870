//! # Disclosure risk measures
//!
//! How well an intruder who holds the original values `x` can find a record's released
//! values `y` (both n x p, original units, row-major, row i of `y` released for row i of `x`):
//!
//! - `dbrl_percent`: distance-based record linkage (Domingo-Ferrer & Torra 2001;
//!   Domingo-Ferrer, Mateo-Sanz & Torra 2001): every released record is linked to the
//!   original record nearest in Euclidean distance, both files standardised by the
//!   *original* file's column means and population standard deviations. A released record
//!   whose nearest set holds t records, its own among them, counts 1/t (a tie is a guess
//!   among t); the measure is 100 * (sum of counts) / n. Microaggregated records of one
//!   group are identical, so at most one original record per group is linked (barring
//!   ties): DBRL <= 100 * groups / n.
//! - `sdid_percent`: standard-deviation-based interval disclosure (after Mateo-Sanz, Sebe &
//!   Domingo-Ferrer 2004): for p = 1 %, ..., 10 %, the share of cells whose original value
//!   lies in [y_ij - p S_j, y_ij + p S_j], S_j the sample standard deviation of original
//!   column j; averaged over the ten p, in percent.
//! - `rid_percent`: rank-based interval disclosure (after Domingo-Ferrer, Mateo-Sanz &
//!   Torra 2001): per column, the released value y_ij is given its rank r among the sorted
//!   original values (the number of original values below it, at most n - 1); the interval
//!   runs from the original value of rank r - w to that of rank r + w (clipped to the
//!   column), w the largest offset below p n / 100 (w = ceil(p n / 100) - 1), i.e. the ranks
//!   that differ from r by less than p % of the records; the share of cells whose original
//!   value lies in their interval, averaged over p = 1 %, ..., 10 %, in percent.
//! - `drisk_sdcmicro`: sdcMicro's `dRisk(x, xm, k)`: the share of records (0..1) whose
//!   original values *all* lie in [y_ij - k S'_j, y_ij + k S'_j], S'_j the sample standard
//!   deviation of the *released* column j, k = 0.05 by default.
//!
//! Not implemented: sdcMicro's `dRiskRMD` (needs the MCD robust covariance of
//! `robustbase::covMcd`) and its `recordLinkage` (global one-to-one linkage by the
//! Hungarian algorithm, Herranz et al. 2015). The interval measures are written from the
//! published descriptions as cited by sdcMicro and the literature; the papers' text was not
//! at hand (`docs/measures.md`).
//!
//! ## Complexity
//! DBRL O(n^2 p) (every pair; parallel over released records, results do not depend on
//! the threads); the interval measures O(n p).
//!
//! ## References
//! Domingo-Ferrer & Torra (2001), A quantitative comparison of disclosure control methods
//! for microdata, in Confidentiality, Disclosure and Data Access, Elsevier, 111-133.
//! Mateo-Sanz, Sebe & Domingo-Ferrer (2004), PSD 2004, LNCS 3050, 201-215.
//! sdcMicro (Templ, Kowarik & Meindl), `R/dRisk.R`.

use super::stats;
use rayon::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The risk measures of a released file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct Risk {
    pub dbrl_percent: f64,
    pub sdid_percent: f64,
    /// Rank-based interval disclosure, percent of cells (absent in records written before
    /// it was added).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rid_percent: Option<f64>,
    pub drisk_sdcmicro: f64,
    /// The k of `drisk_sdcmicro` (share of the released column's standard deviation).
    pub drisk_k: f64,
}

/// Risk measures of `y` against `x` (n x p, row-major).
pub fn risk(x: &[f64], y: &[f64], p: usize, drisk_k: f64) -> Risk {
    Risk {
        dbrl_percent: dbrl_percent(x, y, p),
        sdid_percent: sdid_percent(x, y, p),
        rid_percent: Some(rid_percent(x, y, p)),
        drisk_sdcmicro: drisk(x, y, p, drisk_k),
        drisk_k,
    }
}

/// Distance-based record linkage, percent of records linked correctly (ties share).
pub fn dbrl_percent(x: &[f64], y: &[f64], p: usize) -> f64 {
    let n = x.len() / p;
    // Distances of raw differences times 1 / sigma_j: a shift by the mean cancels, and
    // equal raw differences give equal distances (ties are not lost to rounding).
    let inv_sd: Vec<f64> = (0..p)
        .map(|j| {
            let c = stats::column(x, p, j);
            let m = stats::mean(&c);
            let s = (c.iter().map(|v| (v - m).powi(2)).sum::<f64>() / n as f64).sqrt();
            if s > 0.0 {
                1.0 / s
            } else {
                1.0
            }
        })
        .collect();
    let credit: f64 = crate::parallel::install(|| {
        (0..n)
            .into_par_iter()
            .map(|i| {
                let yi = &y[i * p..(i + 1) * p];
                let (mut best, mut ties, mut own) = (f64::INFINITY, 0usize, false);
                for (l, xl) in x.chunks_exact(p).enumerate() {
                    let d: f64 = (0..p).map(|j| ((yi[j] - xl[j]) * inv_sd[j]).powi(2)).sum();
                    if d < best {
                        (best, ties, own) = (d, 1, l == i);
                    } else if d == best {
                        ties += 1;
                        own |= l == i;
                    }
                }
                if own {
                    1.0 / ties as f64
                } else {
                    0.0
                }
            })
            .collect::<Vec<f64>>()
    })
    .iter()
    .sum();
    100.0 * credit / n as f64
}

/// Standard-deviation-based interval disclosure, percent of cells, averaged over p = 1..10 %.
pub(crate) fn sdid_percent(x: &[f64], y: &[f64], p: usize) -> f64 {
    let n = x.len() / p;
    let s: Vec<f64> = (0..p).map(|j| stats::sd(&stats::column(x, p, j))).collect();
    let mut total = 0.0;
    for pct in 1..=10 {
        let w = pct as f64 / 100.0;
        let inside = x
            .iter()
            .zip(y)
            .enumerate()
            .filter(|(c, (a, b))| (*a - *b).abs() <= w * s[c % p])
            .count();
        total += 100.0 * inside as f64 / (n * p) as f64;
    }
    total / 10.0
}

/// Rank-based interval disclosure, percent of cells, averaged over p = 1..10 % (module
/// doc). O(n p log n).
pub(crate) fn rid_percent(x: &[f64], y: &[f64], p: usize) -> f64 {
    let n = x.len() / p;
    let mut inside = [0usize; 10];
    for j in 0..p {
        let mut sorted = stats::column(x, p, j);
        sorted.sort_by(f64::total_cmp);
        for i in 0..n {
            let (a, b) = (x[i * p + j], y[i * p + j]);
            let r = sorted.partition_point(|v| *v < b).min(n - 1);
            for (t, count) in inside.iter_mut().enumerate() {
                let w = ((t + 1) as f64 * n as f64 / 100.0).ceil() as usize - 1;
                let (lo, hi) = (sorted[r.saturating_sub(w)], sorted[(r + w).min(n - 1)]);
                *count += usize::from(lo <= a && a <= hi);
            }
        }
    }
    inside
        .iter()
        .map(|&c| 100.0 * c as f64 / (n * p) as f64)
        .sum::<f64>()
        / 10.0
}

/// sdcMicro's `dRisk`: share of records whose every original value lies within k sample
/// standard deviations of the released column around its released value.
pub(crate) fn drisk(x: &[f64], y: &[f64], p: usize, k: f64) -> f64 {
    let n = x.len() / p;
    let s: Vec<f64> = (0..p).map(|j| stats::sd(&stats::column(y, p, j))).collect();
    let at_risk = (0..n)
        .filter(|&i| {
            (0..p).all(|j| {
                let (a, b) = (x[i * p + j], y[i * p + j]);
                // sdcMicro: safe when x < y - k sd or x > y + k sd.
                !(a < b - k * s[j] || a > b + k * s[j])
            })
        })
        .count();
    at_risk as f64 / n as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dbrl_by_hand_with_ties_and_without() {
        // Groups {0,1} and {2,3}: each released record is at squared distance 2 (raw units;
        // both columns have the same standard deviation) from both members of its group,
        // so each record is a guess between two: 4 * 1/2 of 4 records = 50 %.
        let x = [1.0, 2.0, 3.0, 4.0, 5.0, 8.0, 7.0, 6.0];
        let y = [2.0, 3.0, 2.0, 3.0, 6.0, 7.0, 6.0, 7.0];
        assert_eq!(dbrl_percent(&x, &y, 2), 50.0);
        assert_eq!(dbrl_percent(&x, &x, 2), 100.0);
        // Records released one place down the list: none links to itself.
        let shifted = [3.0, 4.0, 5.0, 8.0, 7.0, 6.0, 1.0, 2.0];
        assert_eq!(dbrl_percent(&x, &shifted, 2), 0.0);
        // Group {0,1,2} released as its mean (3, 14/3), record 3 unchanged. Both columns
        // have sigma = sqrt 5, so squared raw distances rank alike: from (3, 14/3) to the
        // originals 4 + 64/9, 4/9, 4 + 100/9, 16 + 16/9: records 0, 1, 2 all link to
        // record 1 (one correct link), record 3 links to itself: 2 of 4.
        let y3 = [3.0, 14.0 / 3.0, 3.0, 14.0 / 3.0, 3.0, 14.0 / 3.0, 7.0, 6.0];
        let d = dbrl_percent(&x, &y3, 2);
        assert_eq!(d, 100.0 * 2.0 / 4.0);
    }

    #[test]
    fn sdid_counts_cells_within_p_standard_deviations() {
        // One column 0, 10, 20, 30: S = sqrt(500/3) = 12.91; offsets 0.5, 1.5, 0, 2:
        // within p S for p = 1..10 %: 0.129, 0.258, ..., 1.291.
        let x = [0.0, 10.0, 20.0, 30.0];
        let y = [0.5, 11.5, 20.0, 32.0];
        let s = (500.0f64 / 3.0).sqrt();
        let mut want = 0.0;
        for pct in 1..=10 {
            let w = pct as f64 / 100.0 * s;
            let inside = [0.5, 1.5, 0.0, 2.0].iter().filter(|&&o| o <= w).count();
            want += 100.0 * inside as f64 / 4.0;
        }
        assert!((sdid_percent(&x, &y, 1) - want / 10.0).abs() < 1e-12);
        // By hand: 0.5 is inside from p = 4 % (0.516) on: 7 of 10; 1.5 and 2 never; 0 always.
        assert!((sdid_percent(&x, &y, 1) - (25.0 + 25.0 * 0.7)).abs() < 1e-12);
    }

    #[test]
    fn rid_by_hand() {
        // One column 0, 10, ..., 190 (n = 20): p n / 100 = 0.2 .. 2.0, so w = 0 for
        // p = 1..5 % and w = 1 for p = 6..10 %. Released 0 (exact: rank 0, inside always),
        // 12 (rank 2, value 20; x = 10 is rank 1: inside only with w = 1), 35 for x = 20
        // (rank 4 = 40; 20 is two ranks away: never), the rest unchanged (inside always).
        let x: Vec<f64> = (0..20).map(|i| 10.0 * i as f64).collect();
        let mut y = x.clone();
        y[1] = 12.0;
        y[2] = 35.0;
        let want = (18.0 * 10.0 + 5.0 + 0.0) / 20.0 / 10.0 * 100.0;
        assert!((rid_percent(&x, &y, 1) - want).abs() < 1e-12);
        assert_eq!(rid_percent(&x, &x, 1), 100.0);
        // Beyond the largest original value: rank n - 1.
        let mut z = x.clone();
        z[19] = 1000.0;
        assert_eq!(rid_percent(&x, &z, 1), 100.0);
        // Two columns are counted cell by cell.
        let x2: Vec<f64> = x.iter().flat_map(|&v| [v, 2.0 * v]).collect();
        let y2: Vec<f64> = y.iter().flat_map(|&v| [v, 2.0 * v]).collect();
        assert!((rid_percent(&x2, &y2, 2) - want).abs() < 1e-12);
    }

    #[test]
    fn drisk_by_hand() {
        // x = 0, 10, 20; y = 0.1, 10, 30: sd(y) = 15.2317 (n - 1), k = 0.05 -> 0.7616:
        // records 0 and 1 at risk, record 2 (|20 - 30| = 10) not; k = 0.005 -> 0.0762:
        // record 0 (0.1 away) is safe too.
        let x = [0.0, 10.0, 20.0];
        let y = [0.1, 10.0, 30.0];
        assert_eq!(drisk(&x, &y, 1, 0.05), 2.0 / 3.0);
        assert_eq!(drisk(&x, &y, 1, 0.005), 1.0 / 3.0);
        // Two columns: a record is at risk only when every column is inside.
        let x2 = [0.0, 0.0, 10.0, 10.0, 20.0, 20.0];
        let y2 = [0.1, 5.0, 10.0, 10.0, 30.0, 20.0];
        assert_eq!(drisk(&x2, &y2, 2, 0.05), 1.0 / 3.0);
    }
}
