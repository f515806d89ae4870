//! # P-S with the mean-based sorting function (`ps-meansort`)
//!
//! Pairwise-systematic microaggregation ([`crate::init::mhm::pairwise_systematic`]) where records are
//! sorted by SF_j = sum_i (y_ij - mean_i), the sum over attributes of the record's deviation
//! from the centroid (Kabir et al. 2010 eq. 4, 2015 eq. 5). On the remaining records the
//! centroid term is the same constant for every record, so the order is that of the row sums
//! and is computed once. The sum depends on how the attributes are scaled, so the parameter
//! `scale` chooses the values summed: `minmax` (default; the 2015 paper rescales every
//! attribute to [0, 1] before sorting, its eq. 4), `raw` (the original values; this is what
//! the 2015 paper's Table IV example uses, and the test reproduces its order) or `zscore`
//! (the workbench's standardised values). The k-nearest steps always use the z-scores, the
//! metric in which SSE and IL are measured.
//!
//! ## The published values are not reproduced
//! The papers print IL values far below what this algorithm gives on the CASC data, e.g.
//! 5.49 for Tarragona at k = 3 (Kabir et al. 2015 Table VI; MDAV gives 16.93 there), while
//! this implementation gives 17.22 (min-max), 16.00 (raw) or 17.33 (zscore):
//! `microagg run --data tarragona --k 3 --method ps-meansort` (add
//! `--param ps-meansort.scale=raw` for the others). The certified nn lower bound
//! (proofs/P06; `microagg bound --data tarragona --k 3`) is 9.855 % IL on the z-scored data:
//! no partition into groups of at least 3 reaches 5.49 there, so the printed value was not
//! computed as IL on z-scored attributes (another scaling changes what IL measures).
//! We report the true IL of the algorithm as described; `tests/construct/lineage_sanity.rs` pins it.
//!
//! ## Complexity
//! O(n log n) for the order, O(n^2 d / k) for the k-nearest passes. O(n d) memory.
//!
//! ## References
//! Kabir, Wang & Bertino (2010), "A pairwise-systematic microaggregation for statistical
//! disclosure control", IEEE ICDM 2010, pp. 266-273. Kabir, Mahmood, Wang & Mustafa (2015),
//! "Microaggregation sorting framework for k-anonymity statistical disclosure control in
//! cloud computing", IEEE Transactions on Cloud Computing (Meansort + P-S).

use crate::data::Instance;
use crate::error::Result;
use crate::init::mhm::pairwise_systematic::{min_max_by_key, pairwise_systematic, Sorter};
use crate::method::{BuildCtx, Initializer, MethodInfo, Problem};
use crate::params::Params;
use crate::partition::Partition;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct PsMeansortParams {
    /// Values summed by the sorting function: "minmax", "raw" or "zscore".
    pub scale: String,
}

impl Default for PsMeansortParams {
    fn default() -> Self {
        PsMeansortParams {
            scale: "minmax".into(),
        }
    }
}

impl Params for PsMeansortParams {
    const DOC: &'static [(&'static str, &'static str)] = &[(
        "scale",
        "values summed by the sorting function: minmax (default, each attribute rescaled to [0,1] as in Kabir et al. 2015), raw, or zscore",
    )];

    fn check(&self) -> Result<(), String> {
        match self.scale.as_str() {
            "minmax" | "raw" | "zscore" => Ok(()),
            other => Err(format!(
                "scale must be minmax, raw or zscore, got '{other}'"
            )),
        }
    }
}

pub(crate) struct PsMeansort {
    params: PsMeansortParams,
}

/// The sorting key of every record: the sum of its attribute values under `scale`.
pub(crate) fn sorting_keys(inst: &Instance, scale: &str) -> Vec<f64> {
    let (n, d) = (inst.n, inst.d);
    let value = |i: usize, j: usize| -> f64 {
        match scale {
            "raw" => inst.raw[i * d + j],
            _ => inst.z[i * d + j],
        }
    };
    let mut lo = vec![f64::INFINITY; d];
    let mut hi = vec![f64::NEG_INFINITY; d];
    for i in 0..n {
        for j in 0..d {
            lo[j] = lo[j].min(value(i, j));
            hi[j] = hi[j].max(value(i, j));
        }
    }
    (0..n)
        .map(|i| {
            (0..d)
                .map(|j| {
                    let v = value(i, j);
                    if scale == "minmax" {
                        let span = hi[j] - lo[j];
                        if span > 0.0 {
                            (v - lo[j]) / span
                        } else {
                            0.0
                        }
                    } else {
                        v
                    }
                })
                .sum()
        })
        .collect()
}

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "ps-meansort",
        "pairwise-systematic: two k-groups per round seeded by the first and last record by the sum of deviations from the mean",
        "Kabir, Wang & Bertino 2010; Kabir et al. 2015",
        |params: PsMeansortParams| PsMeansort { params },
    )
    .deterministic()
}

/// Sorts by a precomputed key per record.
struct RowSum {
    sums: Vec<f64>,
}

impl Sorter for RowSum {
    fn first_last(&mut self, _inst: &Instance, remaining: &[usize]) -> (usize, usize) {
        min_max_by_key(remaining, |i| self.sums[i])
    }
}

impl Initializer for PsMeansort {
    fn name(&self) -> &str {
        "ps-meansort"
    }

    fn build(&self, problem: &Problem, _ctx: &mut BuildCtx) -> Result<Partition> {
        let (inst, k) = (problem.inst(), problem.k());
        let sums = sorting_keys(inst, &self.params.scale);
        let groups = pairwise_systematic(inst, k, &mut RowSum { sums });
        crate::init::finish("ps-meansort", inst, k, &groups)
    }
}

#[cfg(test)]
mod tests {
    use super::{sorting_keys, RowSum};
    use crate::init::mhm::pairwise_systematic::{kabir_example, Sorter};

    /// Kabir et al. 2015 Table IV: on the raw values, row 4 (SF -4.4) sorts first and row 2
    /// (SF 5.6) last.
    #[test]
    fn reproduces_the_table_iv_example_on_raw_values() {
        let inst = kabir_example();
        let mut sorter = RowSum {
            sums: sorting_keys(&inst, "raw"),
        };
        assert_eq!(sorter.first_last(&inst, &[0, 1, 2, 3, 4]), (3, 1));
        // Min-max rescaling changes the order on this example: row 3 first, row 1 last.
        let mut sorter = RowSum {
            sums: sorting_keys(&inst, "minmax"),
        };
        assert_eq!(sorter.first_last(&inst, &[0, 1, 2, 3, 4]), (2, 0));
    }
}
