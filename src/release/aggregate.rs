//! # Aggregation of the released values
//!
//! The partition is optimised for the SSE (its optimum releases group means); the office
//! may release another statistic of each group and column instead:
//!
//! - `mean`: the group mean (the SSE optimum's centroid; the bytes the workbench always
//!   wrote);
//! - `median`: the middle value, the mean of the two middle values for an even size (R's
//!   `median`);
//! - `trimmed[:alpha]` (alpha in [0, 0.5], default 0.1): the mean after dropping
//!   floor(size alpha) values at each end (R's `mean(x, trim = alpha)`, the median from
//!   alpha = 0.5); with groups of k..2k-1 records a small alpha trims nothing (size 3,
//!   alpha < 1/3: the mean);
//! - `onestep`: sdcMicro's `measure = "onestep"`: values winsorised to median +- (3 / 1.486)
//!   MAD (MAD = 1.4826 median |x - median|, R's `mad`), then averaged;
//! - `onemode`: an observed value: the most frequent value of the group's column, ties
//!   (every value once, in continuous data) to the one nearest the group mean, then to the
//!   smaller. Every released value is a value some record of the group has.
//!
//! sdcMicro offers mean, median, trim and onestep for its projection methods but ignores
//! `measure` for `method = "mdav"` (always the mean); it has no mode aggregation.
//!
//! With sampling weights (`--weights`) `mean` is the weighted mean
//! (`weighted_masked_values`) and `median` the weighted median ([`weighted_median`]),
//! sdcMicro's definition (`weightedQuantile(x, w, probs = 0.5)` in `R/microaggregation.R`,
//! commit cf32510): values sorted ascending, rw = cumsum(w) / sum(w), the first value with
//! rw >= 1/2, or the mean of it and the next when rw there is exactly 1/2. The other
//! aggregations have no weighted version (sdcMicro's `trim` and `onestep` ignore the
//! weights) and are refused with weights.
//!
//! ## Complexity
//! O(n d) for the mean, O(n d log(2k)) for the others (a sort per group and column; the
//! weighted median the same).
//!
//! ## References
//! sdcMicro (Templ, Kowarik & Meindl 2015), `R/microaggregation.R`; Hampel et al. (1986),
//! Robust Statistics (MAD, one-step estimators).

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::measure::stats;

/// How a group's released value is computed from its members' values.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Aggregation {
    #[default]
    Mean,
    Median,
    Trimmed(f64),
    Onestep,
    Onemode,
}

/// Default trimming share of `trimmed`.
pub(crate) const DEFAULT_TRIM: f64 = 0.1;

impl Aggregation {
    /// Parse `mean`, `median`, `trimmed`, `trimmed:ALPHA`, `onestep`, `onemode`.
    pub fn parse(s: &str) -> Result<Self> {
        let bad = |why: &str| {
            Error::usage(format!(
                "--aggregate '{s}': {why}; expected mean, median, trimmed[:ALPHA] (ALPHA in \
                 [0, 0.5]), onestep or onemode"
            ))
        };
        match s.trim() {
            "mean" => Ok(Aggregation::Mean),
            "median" => Ok(Aggregation::Median),
            "onestep" => Ok(Aggregation::Onestep),
            "onemode" => Ok(Aggregation::Onemode),
            "trimmed" => Ok(Aggregation::Trimmed(DEFAULT_TRIM)),
            t => match t.strip_prefix("trimmed:") {
                Some(a) => {
                    let alpha: f64 = a.trim().parse().map_err(|_| bad("not a number"))?;
                    if !(0.0..=0.5).contains(&alpha) {
                        return Err(bad("ALPHA out of range"));
                    }
                    Ok(Aggregation::Trimmed(alpha))
                }
                None => Err(bad("unknown aggregation")),
            },
        }
    }

    /// The name as it is parsed (`trimmed:0.1`).
    pub fn name(&self) -> String {
        match self {
            Aggregation::Mean => "mean".into(),
            Aggregation::Median => "median".into(),
            Aggregation::Trimmed(a) => format!("trimmed:{a}"),
            Aggregation::Onestep => "onestep".into(),
            Aggregation::Onemode => "onemode".into(),
        }
    }

    /// The released value of one group's values.
    pub fn of(&self, values: &[f64]) -> f64 {
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        match *self {
            Aggregation::Mean => stats::mean(&v),
            Aggregation::Median => median_sorted(&v),
            Aggregation::Trimmed(alpha) => {
                if alpha >= 0.5 {
                    return median_sorted(&v);
                }
                let cut = (v.len() as f64 * alpha).floor() as usize;
                stats::mean(&v[cut..v.len() - cut])
            }
            Aggregation::Onestep => {
                let m = median_sorted(&v);
                let mut dev: Vec<f64> = v.iter().map(|x| (x - m).abs()).collect();
                dev.sort_by(f64::total_cmp);
                let mad = 1.4826 * median_sorted(&dev);
                let c = 3.0 / 1.486;
                let (lo, hi) = (m - c * mad, m + c * mad);
                let w: Vec<f64> = v.iter().map(|x| x.clamp(lo, hi)).collect();
                stats::mean(&w)
            }
            Aggregation::Onemode => {
                let mean = stats::mean(&v);
                // Runs of equal values in the sorted list; the longest, then nearest the
                // mean, then the smaller (the first met).
                let mut best = (0usize, f64::INFINITY, v[0]);
                let mut i = 0;
                while i < v.len() {
                    let j = v[i..]
                        .iter()
                        .position(|x| *x != v[i])
                        .map_or(v.len(), |t| i + t);
                    let (count, dist) = (j - i, (v[i] - mean).abs());
                    if count > best.0 || (count == best.0 && dist < best.1) {
                        best = (count, dist, v[i]);
                    }
                    i = j;
                }
                best.2
            }
        }
    }
}

/// Each record replaced by its group's weighted mean `sum w_i x_i / sum w_i` (original
/// units, row-major n x d; per column over the group's observed cells), with the power-of-two scaling of
/// [`crate::labels::masked_values`] against overflow; with unit weights the same operations
/// in the same order, so the same bits. O(n d).
pub(crate) fn weighted_masked_values(
    inst: &Instance,
    w: &[f64],
    labels: &[usize],
) -> Result<Vec<f64>> {
    use crate::data::instance::ldexp;
    let d = inst.d;
    if labels.len() != inst.n || w.len() != inst.n {
        return Err(Error::Infeasible(format!(
            "{} labels and {} weights for {} records",
            labels.len(),
            w.len(),
            inst.n
        )));
    }
    let g = labels.iter().copied().max().map_or(0, |m| m + 1);
    let scale = crate::labels::column_scales(inst);
    let mut sums = vec![0.0; g * d];
    // Per group and column the weight of the observed cells (`--missing ignore` leaves a
    // missing cell out; on complete data every column's total is the group's, summed in
    // the same order, so the same bits).
    let mut totals = vec![0.0f64; g * d];
    for (i, &l) in labels.iter().enumerate() {
        for j in 0..d {
            let x = inst.raw[i * d + j];
            if !x.is_nan() {
                totals[l * d + j] += w[i];
                sums[l * d + j] += w[i] * ldexp(x, -scale[j]);
            }
        }
    }
    for l in 0..g {
        for j in 0..d {
            let total = totals[l * d + j];
            // A group that observes nothing in the column releases nothing there (NaN: the
            // writer keeps the input's cell); an empty label releases nothing at all.
            sums[l * d + j] = if total > 0.0 {
                ldexp(sums[l * d + j] / total, scale[j])
            } else {
                f64::NAN
            };
        }
    }
    Ok(labels
        .iter()
        .flat_map(|&l| sums[l * d..(l + 1) * d].iter().copied())
        .collect())
}

/// sdcMicro's weighted median of `(value, weight)` pairs (positive weights): the pairs sorted
/// by value (stable, so ties keep their order, as R's `order`), rw_i = (w_1 + .. + w_i) /
/// (w_1 + .. + w_n); the first i with rw_i >= 1/2 gives x_i, or x_i / 2 + x_(i+1) / 2 when
/// rw_i == 1/2 exactly. With equal weights it is the ordinary median. R sums in extended
/// precision (`cumsum`, `sum`), we in f64 left to right: the exact-1/2 test can only differ
/// when the weights' partial sums are not exact in f64 (integer weights below 2^53 are).
pub fn weighted_median(pairs: &[(f64, f64)]) -> f64 {
    let mut v = pairs.to_vec();
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total: f64 = v.iter().map(|p| p.1).sum();
    let mut cum = 0.0;
    for (i, &(x, w)) in v.iter().enumerate() {
        cum += w;
        let rw = cum / total;
        if rw >= 0.5 {
            return if rw == 0.5 && i + 1 < v.len() {
                x / 2.0 + v[i + 1].0 / 2.0
            } else {
                x
            };
        }
    }
    // Unreachable for positive weights (rw_n = 1); the largest value otherwise.
    v.last().map_or(f64::NAN, |p| p.0)
}

/// Each record replaced by its group's weighted median ([`weighted_median`]) per column,
/// over the group's observed cells (original units, row-major n x d).
pub(crate) fn weighted_median_values(inst: &Instance, w: &[f64], labels: &[usize]) -> Vec<f64> {
    let d = inst.d;
    let g = labels.iter().copied().max().map_or(0, |m| m + 1);
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); g];
    for (i, &l) in labels.iter().enumerate() {
        members[l].push(i);
    }
    let mut group_value = vec![f64::NAN; g * d];
    let mut buf = Vec::new();
    for (l, m) in members.iter().enumerate() {
        for j in 0..d {
            buf.clear();
            buf.extend(
                m.iter()
                    .map(|&i| (inst.raw[i * d + j], w[i]))
                    .filter(|p| !p.0.is_nan()),
            );
            if !buf.is_empty() {
                group_value[l * d + j] = weighted_median(&buf);
            }
        }
    }
    labels
        .iter()
        .flat_map(|&l| group_value[l * d..(l + 1) * d].iter().copied())
        .collect()
}

fn median_sorted(v: &[f64]) -> f64 {
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        v[n / 2 - 1] / 2.0 + v[n / 2] / 2.0
    }
}

/// The released values (n x d, original units, row-major): each record's group aggregate.
/// The mean is the workbench's masked output ([`crate::labels::masked_values`]), bit for bit;
/// with sampling weights (`--weights`) it is the weighted group mean
/// (`weighted_masked_values`) or the weighted median (`weighted_median_values`), and
/// the other aggregations are refused (no weighted version, `docs/weights.md`).
pub fn released_values(inst: &Instance, labels: &[usize], agg: Aggregation) -> Result<Vec<f64>> {
    if let Some(w) = &inst.weights {
        return match agg {
            Aggregation::Mean => weighted_masked_values(inst, &w.values, labels),
            Aggregation::Median if labels.len() == inst.n => {
                Ok(weighted_median_values(inst, &w.values, labels))
            }
            Aggregation::Median => Err(Error::Infeasible(format!(
                "{} labels for {} records",
                labels.len(),
                inst.n
            ))),
            _ => Err(Error::usage(format!(
                "--aggregate {} with --weights: only the mean and the median have a weighted \
                 version (sdcMicro's); use --aggregate mean or median, or leave out --weights",
                agg.name()
            ))),
        };
    }
    let holes = inst.has_missing();
    if agg == Aggregation::Mean && !holes {
        return crate::labels::masked_values(inst, labels);
    }
    let d = inst.d;
    let g = crate::partition::label_slots(inst, labels)?;
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); g];
    for (i, &l) in labels.iter().enumerate() {
        members[l].push(i);
    }
    let mut group_value = vec![0.0; g * d];
    let mut buf = Vec::new();
    for (l, m) in members.iter().enumerate().filter(|(_, m)| !m.is_empty()) {
        for j in 0..d {
            buf.clear();
            // Missing cells (NaN, `--missing ignore`) are left out; none observed: NaN.
            buf.extend(
                m.iter()
                    .map(|&i| inst.raw[i * d + j])
                    .filter(|v| !v.is_nan()),
            );
            group_value[l * d + j] = if buf.is_empty() {
                f64::NAN
            } else {
                agg.of(&buf)
            };
        }
    }
    Ok(labels
        .iter()
        .flat_map(|&l| group_value[l * d..(l + 1) * d].iter().copied())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_aggregation_by_hand() {
        let v = [4.0, 1.0, 2.0, 100.0, 3.0];
        assert_eq!(Aggregation::Mean.of(&v), 22.0);
        assert_eq!(Aggregation::Median.of(&v), 3.0);
        assert_eq!(Aggregation::Median.of(&[4.0, 1.0, 2.0, 100.0]), 3.0);
        // floor(5 * 0.2) = 1 dropped at each end: mean(2, 3, 4).
        assert_eq!(Aggregation::Trimmed(0.2).of(&v), 3.0);
        assert_eq!(Aggregation::Trimmed(0.1).of(&v), 22.0);
        assert_eq!(Aggregation::Trimmed(0.5).of(&v), 3.0);
        // median 3, MAD = 1.4826 * median(1, 2, 1, 97, 0) = 1.4826; limits 3 +- 2.0188 * 1.4826:
        // 100 -> 3 + 2.99300..., 1..4 kept.
        let hi = 3.0 + 3.0 / 1.486 * 1.4826;
        let want = (4.0 + 1.0 + 2.0 + hi + 3.0) / 5.0;
        assert!((Aggregation::Onestep.of(&v) - want).abs() < 1e-12);
        // Mode: 2 appears twice.
        assert_eq!(Aggregation::Onemode.of(&[5.0, 2.0, 9.0, 2.0]), 2.0);
        // All distinct: nearest the mean 22 is 4 (distance 18).
        assert_eq!(Aggregation::Onemode.of(&v), 4.0);
        // Tie in distance (mean 2; 1 and 3 both 1 away; 2 absent): the smaller.
        assert_eq!(Aggregation::Onemode.of(&[1.0, 3.0, 1.0, 3.0]), 1.0);
    }

    #[test]
    fn parsing_names_and_errors() {
        for s in ["mean", "median", "trimmed:0.25", "onestep", "onemode"] {
            assert_eq!(Aggregation::parse(s).unwrap().name(), s);
        }
        assert_eq!(
            Aggregation::parse("trimmed").unwrap(),
            Aggregation::Trimmed(0.1)
        );
        for s in ["mode", "trimmed:0.6", "trimmed:x", ""] {
            let e = Aggregation::parse(s).unwrap_err().to_string();
            assert!(e.contains("--aggregate") && e.contains("onemode"), "{e}");
        }
    }
}
