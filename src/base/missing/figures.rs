//! # Figures over observed cells, with or without sampling weights
//!
//! The masked SSE of data with missing cells (`--missing ignore`) and its weighted form
//! (`--weights` as well; docs/weights.md, "Weights and missing values";
//! `proofs/P40-weighted-sse.md`, section W7): for a group G and a column j with observed
//! members O_Gj (cells not missing) and their weight W_Gj = sum_{i in O_Gj} w_i,
//!
//! - the **masked centroid** `c_Gj = sum_{i in O_Gj} w_i z_ij / W_Gj` (no value when O_Gj is
//!   empty: the column adds nothing to the group's SSE and releases nothing);
//! - the **masked SSE** `sum_G sum_j sum_{i in O_Gj} w_i (z_ij - c_Gj)^2`, which the masked
//!   centroid minimises per group and column (P40 W7);
//! - the **masked SST** `sum_j sum_{i in O_j} w_i (z_ij - m_j)^2` about the (weighted) means
//!   `m_j` of the observed values of each column;
//! - the **released IL** over the observed cells: `100 sum_{obs} w_i ((x_ij - y_ij) /
//!   sigma_j)^2 / sum_{obs} w_i ((x_ij - m'_j) / sigma_j)^2`, sigma_j the population sd and
//!   m'_j the (weighted) mean of column j's observed values (original units).
//!
//! Without weights every `w_i` is 1: one times a value is that value and a sum of ones is
//! the count, so the unweighted figures are those of unit weights bit for bit (one code
//! path). On complete data the callers use the unmasked functions
//! ([`crate::partition`], [`crate::weighted`]), so complete runs keep their bits.
//!
//! ## Complexity
//! O(|G| d) per group, O(n d) for a labelling or the SST.
//!
//! ## References
//! Cochran, W. G. (1977). Sampling Techniques, 3rd ed., Wiley, Section 2.2; Gower (1971),
//! Biometrics 27(4) (comparing over the observed variables).

use crate::data::Instance;

/// The weight of record `i`: `w_i`, or 1 without weights.
#[inline]
fn weight(w: Option<&[f64]>, i: usize) -> f64 {
    w.map_or(1.0, |w| w[i])
}

/// The (weighted) mean of column `j`'s observed z-scores over `members`; None when none
/// of them observes it.
fn column_mean(inst: &Instance, w: Option<&[f64]>, members: &[usize], j: usize) -> Option<f64> {
    let (mut sum, mut total) = (0.0, 0.0);
    for &i in members.iter().filter(|&&i| !inst.is_missing(i, j)) {
        let wi = weight(w, i);
        sum += wi * inst.z[i * inst.d + j];
        total += wi;
    }
    (total > 0.0).then(|| sum / total)
}

/// The masked centroid of `members` (per column, None where no member observes it) and
/// their (weighted) masked SSE.
pub fn masked_centroid_and_sse(
    inst: &Instance,
    w: Option<&[f64]>,
    members: &[usize],
) -> (Vec<Option<f64>>, f64) {
    let d = inst.d;
    let mut sse = 0.0;
    let centroid = (0..d)
        .map(|j| {
            let c = column_mean(inst, w, members, j)?;
            sse += members
                .iter()
                .filter(|&&i| !inst.is_missing(i, j))
                .map(|&i| weight(w, i) * (inst.z[i * d + j] - c).powi(2))
                .sum::<f64>();
            Some(c)
        })
        .collect();
    (centroid, sse)
}

/// Masked centroid and SSE of one group without weights, the centroid 0 in a column no
/// member observes: the statistics [`crate::partition::Partition`] keeps for an instance
/// with missing cells.
pub(crate) fn group_stats(inst: &Instance, members: &[usize]) -> (Vec<f64>, f64) {
    let (centroid, sse) = masked_centroid_and_sse(inst, None, members);
    (
        centroid.into_iter().map(|c| c.unwrap_or(0.0)).collect(),
        sse,
    )
}

/// The (weighted) masked SST: the masked SSE of all records as one group.
pub(crate) fn masked_sst(inst: &Instance, w: Option<&[f64]>) -> f64 {
    let all: Vec<usize> = (0..inst.n).collect();
    masked_centroid_and_sse(inst, w, &all).1
}

/// The (weighted) IL of released values `y` (original units, n x d) over the observed
/// cells; a released NaN at an observed cell is an error of the caller (never produced:
/// every group has the observed cell itself).
pub(crate) fn il_released(inst: &Instance, y: &[f64], w: Option<&[f64]>) -> f64 {
    let d = inst.d;
    let (mut sse, mut sst) = (0.0, 0.0);
    for j in 0..d {
        let obs: Vec<usize> = (0..inst.n).filter(|&i| !inst.is_missing(i, j)).collect();
        let x = |i: usize| inst.raw[i * d + j];
        let m = obs.iter().map(|&i| x(i)).sum::<f64>() / obs.len() as f64;
        let sigma =
            (obs.iter().map(|&i| (x(i) - m).powi(2)).sum::<f64>() / obs.len() as f64).sqrt();
        let total: f64 = obs.iter().map(|&i| weight(w, i)).sum();
        let mw = obs.iter().map(|&i| weight(w, i) * x(i)).sum::<f64>() / total;
        for &i in &obs {
            sse += weight(w, i) * ((x(i) - y[i * d + j]) / sigma).powi(2);
            sst += weight(w, i) * ((x(i) - mw) / sigma).powi(2);
        }
    }
    100.0 * sse / sst
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two columns, four records, holes at (1, b) and (3, a), weights 1, 3, 2, 2.
    fn instance() -> Instance {
        let nan = f64::NAN;
        let raw = vec![-3.0, 1.0, -1.0, nan, 1.0, 2.0, nan, 5.0];
        let mut inst =
            Instance::from_raw_missing("t", "t", vec!["a".into(), "b".into()], raw, String::new())
                .unwrap();
        inst.weights = Some(crate::data::Weights::new("w", vec![1.0, 3.0, 2.0, 2.0]).unwrap());
        inst
    }

    #[test]
    fn the_weighted_masked_figures_by_hand() {
        let inst = instance();
        let w = &inst.weights.as_ref().unwrap().values;
        // Column a observed at rows 0, 1, 2: values -3, -1, 1 (mean -1, sd sqrt(8/3));
        // column b at rows 0, 2, 3: values 1, 2, 5 (mean 8/3, sd sqrt(26/9)).
        let (sa, sb) = ((8.0f64 / 3.0).sqrt(), (26.0f64 / 9.0).sqrt());
        // Group {0, 1}: column a weights 1, 3 -> centroid (-3 + 3 (-1)) / 4 = -1.5 (raw),
        // weighted SSE 1 (1.5)^2 + 3 (0.5)^2 = 3 (raw); column b only row 0: 0.
        // Group {2, 3}: column a only row 2: 0; column b weights 2, 2 -> centroid 3.5,
        // SSE 2 (1.5)^2 + 2 (1.5)^2 = 9.
        let sse = crate::weighted::weighted_sse_of_labels(&inst, w, &[0, 0, 1, 1]);
        let hand = 3.0 / (sa * sa) + 9.0 / (sb * sb);
        assert!((sse - hand).abs() < 1e-12 * hand, "{sse} vs {hand}");
        // SST: column a weights 1, 3, 2 -> mean (-3 - 3 + 2) / 6 = -2/3, sum w (x - m)^2 =
        // 49/9 + 3/9 + 2 25/9 = 102/9; column b weights 1, 2, 2 -> mean 15/5 = 3, sum =
        // 4 + 2 + 8 = 14.
        let sst = masked_sst(&inst, Some(w));
        let hand_sst = 102.0 / 9.0 / (sa * sa) + 14.0 / (sb * sb);
        assert!(
            (sst - hand_sst).abs() < 1e-12 * hand_sst,
            "{sst} vs {hand_sst}"
        );
        // The centroid of {0, 1} in z units: column b from row 0 alone.
        let c = masked_centroid_and_sse(&inst, Some(w), &[0, 1]).0;
        assert!((c[0].unwrap() - (-1.5 + 1.0) / sa).abs() < 1e-12);
        assert!((c[1].unwrap() - (1.0 - 8.0 / 3.0) / sb).abs() < 1e-12);
        assert_eq!(masked_centroid_and_sse(&inst, Some(w), &[3]).0[0], None);
        // The released weighted group means give the partition's weighted IL.
        let y = [-1.5, 1.0, -1.5, f64::NAN, 1.0, 3.5, f64::NAN, 3.5];
        let il = il_released(&inst, &y, Some(w));
        assert!((il - 100.0 * sse / sst).abs() < 1e-9, "{il}");
    }
}
