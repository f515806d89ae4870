//! # Reference: MDAV over data with missing cells, by a plain scan
//!
//! The independent second implementation the engine's masked MDAV (`src/init/lineage/rule_method.rs`
//! on `src/geometry/masked_scan.rs`) is tested against: its own distance over observed-column masks,
//! fresh (uncompensated) centroids, sorts instead of the pool's selection. It was the
//! production masked MDAV before the engine carried masks.
//!
//! The rules of [`crate::init::lineage::mdav`] (Domingo-Ferrer & Torra 2005, the published-values
//! form): while at least 2k records remain, r is the record farthest from the centroid of
//! the remaining records, its group the k records nearest to r (r itself first), s the
//! record farthest from r among those left, its group the k nearest to s; a rest of
//! k..2k-1 records is one group, a rest of fewer than k is handed out record by record to
//! the group whose centroid (taken before the rest joins) is nearest. Ties go to the lowest
//! record index (the lowest group for centroids), as in the lineage engine.
//!
//! With missing cells the distance is [`masked_sq_dist`] and centroids are per-column means
//! over the observed cells (a column with no observed value is missing in the centroid). On
//! complete data both reduce to the plain ones, so the groups are those of `mdav` (tested
//! on the CASC files).
//!
//! ## Complexity
//! O(n^2 d / k) time (three O(m d) scans per round over the m remaining records), O(n d)
//! memory.
//!
//! ## References
//! Domingo-Ferrer & Torra (2005), Data Mining and Knowledge Discovery 11(2); Gower (1971),
//! Biometrics 27(4).

use microagg::data::Instance;
use microagg::error::{Error, Result};
use std::sync::atomic::{AtomicBool, Ordering};

/// Squared distance over the columns observed in both (`a_obs`, `b_obs`), rescaled by
/// d / d_ab; infinite when no column is observed in both. With every column observed it is
/// the plain squared Euclidean distance, bit for bit (the factor is exactly 1).
pub fn masked_sq_dist(a: &[f64], a_obs: &[bool], b: &[f64], b_obs: &[bool]) -> f64 {
    let d = a.len();
    let (mut sum, mut common) = (0.0, 0usize);
    for j in 0..d {
        if a_obs[j] && b_obs[j] {
            let t = a[j] - b[j];
            sum += t * t;
            common += 1;
        }
    }
    match common {
        0 => f64::INFINITY,
        c if c == d => sum,
        c => sum * (d as f64 / c as f64),
    }
}

/// Per-column means over the observed cells of `rows` (value, observed).
pub fn masked_centroid(inst: &Instance, rows: &[usize], obs: &[bool]) -> (Vec<f64>, Vec<bool>) {
    let d = inst.d;
    let mut sum = vec![0.0; d];
    let mut count = vec![0usize; d];
    for &i in rows {
        for j in 0..d {
            if obs[i * d + j] {
                sum[j] += inst.z[i * d + j];
                count[j] += 1;
            }
        }
    }
    let c = (0..d)
        .map(|j| {
            if count[j] > 0 {
                sum[j] / count[j] as f64
            } else {
                0.0
            }
        })
        .collect();
    (c, count.iter().map(|&c| c > 0).collect())
}

/// MDAV groups (in creation order, each in the order its records were taken) of `inst`
/// with missing cells; stops with [`Error::Interrupted`] when `stop` is set between
/// groups.
pub fn groups(inst: &Instance, k: usize, stop: &AtomicBool) -> Result<Vec<Vec<usize>>> {
    let d = inst.d;
    let obs: Vec<bool> = inst.raw.iter().map(|v| !v.is_nan()).collect();
    let row = |i: usize| (&inst.z[i * d..(i + 1) * d], &obs[i * d..(i + 1) * d]);
    let mut remaining: Vec<usize> = (0..inst.n).collect();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    // The k remaining records nearest to point (p, p_obs), ties to the lowest index, taken
    // out of `remaining` (which stays in ascending order).
    let take_nearest = |remaining: &mut Vec<usize>, p: &[f64], p_obs: &[bool]| {
        let mut by: Vec<(f64, usize)> = remaining
            .iter()
            .map(|&i| {
                let (x, xo) = row(i);
                (masked_sq_dist(p, p_obs, x, xo), i)
            })
            .collect();
        by.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let group: Vec<usize> = by[..k].iter().map(|t| t.1).collect();
        remaining.retain(|i| !group.contains(i));
        group
    };
    // The remaining record farthest from (p, p_obs), ties to the lowest index.
    let farthest = |remaining: &[usize], p: &[f64], p_obs: &[bool]| {
        let mut best = (f64::NEG_INFINITY, usize::MAX);
        for &i in remaining {
            let (x, xo) = row(i);
            let dist = masked_sq_dist(p, p_obs, x, xo);
            if dist > best.0 {
                best = (dist, i);
            }
        }
        best.1
    };
    let check = || {
        if stop.load(Ordering::SeqCst) {
            Err(Error::Interrupted("mdav (missing values)".into()))
        } else {
            Ok(())
        }
    };
    while remaining.len() >= 2 * k {
        check()?;
        let (c, c_obs) = masked_centroid(inst, &remaining, &obs);
        let r = farthest(&remaining, &c, &c_obs);
        let (xr, xr_obs) = row(r);
        let g = take_nearest(&mut remaining, xr, xr_obs);
        groups.push(g);
        let s = farthest(&remaining, xr, xr_obs);
        let (xs, xs_obs) = row(s);
        let g = take_nearest(&mut remaining, xs, xs_obs);
        groups.push(g);
    }
    if remaining.len() >= k || groups.is_empty() {
        groups.push(remaining);
    } else if !remaining.is_empty() {
        let centroids: Vec<(Vec<f64>, Vec<bool>)> = groups
            .iter()
            .map(|g| masked_centroid(inst, g, &obs))
            .collect();
        for &i in &remaining {
            let (x, xo) = row(i);
            let mut best = (f64::INFINITY, 0);
            for (g, (c, co)) in centroids.iter().enumerate() {
                let dist = masked_sq_dist(x, xo, c, co);
                if dist < best.0 {
                    best = (dist, g);
                }
            }
            groups[best.1].push(i);
        }
    }
    Ok(groups)
}

/// Labels 0..g numbered by first appearance along the rows (every record is in a group).
pub fn labels(n: usize, groups: &[Vec<usize>]) -> Vec<usize> {
    microagg::labels::first_appearance_labels(n, groups)
        .into_iter()
        .map(|l| l.expect("every record is in a group"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masked_distance_by_hand() {
        let t = [true, true, true];
        assert_eq!(
            masked_sq_dist(&[0.0, 1.0, 2.0], &t, &[1.0, 1.0, 0.0], &t),
            5.0
        );
        // Column 2 missing in b: (0-1)^2 + 0 over 2 of 3 columns, times 3/2.
        let b_obs = [true, true, false];
        assert_eq!(
            masked_sq_dist(&[0.0, 1.0, 2.0], &t, &[1.0, 1.0, 0.0], &b_obs),
            1.5
        );
        // Nothing in common: infinitely far.
        assert_eq!(
            masked_sq_dist(&[0.0, 1.0], &[true, false], &[1.0, 1.0], &[false, true]),
            f64::INFINITY
        );
    }
}
