//! # Random feasible partition
//!
//! A uniformly random set partition of the records into groups of `k..=2k-1` records: every
//! such partition has the same probability (the sizes are not drawn first; a partition into
//! many small groups is as likely as any other partition). Sampling is exact, by counting:
//! with `B(m)` the number of such partitions of `m` labelled records,
//! `B(0) = 1`, `B(m) = sum_{s=k}^{min(2k-1, m)} C(m-1, s-1) B(m-s)` (the group of one fixed
//! record has `s` members, the other `s-1` chosen among the other `m-1`). One record of those
//! not yet grouped (the last of the working list) is the anchor; its group size `s` is drawn
//! with probability `C(m-1, s-1) B(m-s) / B(m)` and its `s-1` companions uniformly among the
//! other `m-1` (partial Fisher-Yates into the tail of the working list). The counts overflow
//! any integer type (about `e^n`), so they are kept as natural logarithms; the probabilities
//! are then exact to about 1e-12 relative, far below any sampling effect. Seeded: the run's
//! RNG; the same seed gives the same partition. Proof of uniformity:
//! `proofs/P50-uniform-random-partition.md`.
//!
//! Purpose: a baseline and a random start for refiners (the IL of a random partition is far
//! above any heuristic's).
//!
//! ## Complexity
//! O(n k) for the counts, O(n) for sampling (each group is drawn into the tail of the
//! working list and split off), O(n) memory.
//!
//! ## References
//! The counting recursion is the standard one for set partitions with restricted block sizes
//! (e.g. Flajolet & Sedgewick 2009, Analytic Combinatorics, II.3). Group sizes `k..2k-1`:
//! Domingo-Ferrer & Mateo-Sanz (2002), IEEE TKDE 14(1) (some optimal partition uses only
//! those sizes, `proofs/P03`).

use crate::error::Result;
use crate::method::{BuildCtx, Initializer, MethodInfo, Problem};
use crate::params::NoParams;
use crate::partition::Partition;
use crate::rng::Rng;
use rand::Rng as _;

pub(crate) struct RandomPartition;

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "random",
        "uniformly random partition into groups of k..2k-1 records (every such set partition equally likely; seeded)",
        "counting recursion for set partitions with block sizes k..2k-1",
        |_: NoParams| RandomPartition,
    )
}

impl Initializer for RandomPartition {
    fn name(&self) -> &str {
        "random"
    }

    fn build(&self, problem: &Problem, ctx: &mut BuildCtx) -> Result<Partition> {
        let (inst, k) = (problem.inst(), problem.k());
        let groups = random_groups(inst.n, k, ctx.rng);
        crate::init::finish("random", inst, k, &groups)
    }
}

/// `ln(i!)` for `i = 0..=n`.
fn log_factorials(n: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(n + 1);
    let mut acc = 0.0;
    out.push(0.0);
    for i in 1..=n {
        acc += (i as f64).ln();
        out.push(acc);
    }
    out
}

/// `ln B(m)` for `m = 0..=n`: the number of partitions of `m` labelled records into groups
/// of `k..=2k-1` records (`-inf` when there is none, i.e. `0 < m < k`).
pub(crate) fn log_partition_counts(n: usize, k: usize) -> Vec<f64> {
    let lf = log_factorials(n);
    let ln_choose = |a: usize, b: usize| lf[a] - lf[b] - lf[a - b];
    let mut lb = vec![f64::NEG_INFINITY; n + 1];
    lb[0] = 0.0;
    for m in k..=n {
        let terms: Vec<f64> = (k..=m.min(2 * k - 1))
            .filter(|&s| lb[m - s].is_finite())
            .map(|s| ln_choose(m - 1, s - 1) + lb[m - s])
            .collect();
        if let Some(&max) = terms.iter().max_by(|a, b| a.total_cmp(b)) {
            lb[m] = max + terms.iter().map(|t| (t - max).exp()).sum::<f64>().ln();
        }
    }
    lb
}

/// A uniformly random partition of `0..n` into groups of `k..=2k-1` records (`n >= k >= 1`).
pub(crate) fn random_groups(n: usize, k: usize, rng: &mut Rng) -> Vec<Vec<usize>> {
    let lb = log_partition_counts(n, k);
    let lf = log_factorials(n);
    let ln_choose = |a: usize, b: usize| lf[a] - lf[b] - lf[a - b];
    let mut rest: Vec<usize> = (0..n).collect();
    let mut groups = Vec::with_capacity(n / k);
    while let Some(anchor) = rest.pop() {
        let m = rest.len() + 1;
        let sizes: Vec<usize> = (k..=m.min(2 * k - 1))
            .filter(|&s| lb[m - s].is_finite())
            .collect();
        let u: f64 = rng.random();
        let mut cumulative = 0.0;
        // Rounding can leave the cumulative sum a hair below 1: the last size is the fallback.
        let mut size = *sizes.last().expect("m >= k has a feasible size");
        for &s in &sizes {
            cumulative += (ln_choose(m - 1, s - 1) + lb[m - s] - lb[m]).exp();
            if u < cumulative {
                size = s;
                break;
            }
        }
        // Partial Fisher-Yates into the tail: a uniform (size-1)-subset, removed in O(size).
        let companions = size - 1;
        let len = rest.len();
        for t in 0..companions {
            let j = rng.random_range(0..len - t);
            rest.swap(j, len - 1 - t);
        }
        let mut group: Vec<usize> = rest.split_off(len - companions);
        group.push(anchor);
        groups.push(group);
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn counts_match_hand_values() {
        // n = 6, k = 2: three pairs (15) or two triples (10).
        let lb = log_partition_counts(6, 2);
        assert!((lb[6].exp() - 25.0).abs() < 1e-9);
        // n = 5, k = 2: a pair and a triple, C(5, 2) = 10.
        assert!((lb[5].exp() - 10.0).abs() < 1e-9);
        assert_eq!(lb[1], f64::NEG_INFINITY);
    }

    /// Every one of the 25 partitions of 6 records into groups of 2..3 is drawn with
    /// frequency 1/25 (50 000 draws: a 4-sigma band is about +-0.0031 around 0.04).
    #[test]
    fn sampling_is_uniform_over_partitions() {
        let mut rng = Rng::seed_from_u64(5);
        let mut counts = std::collections::BTreeMap::new();
        let draws = 50_000;
        for _ in 0..draws {
            let mut groups = random_groups(6, 2, &mut rng);
            for g in &mut groups {
                g.sort_unstable();
                assert!((2..=3).contains(&g.len()));
            }
            groups.sort();
            *counts.entry(groups).or_insert(0usize) += 1;
        }
        assert_eq!(counts.len(), 25);
        for (g, c) in counts {
            let f = c as f64 / draws as f64;
            assert!((f - 0.04).abs() < 0.0035, "{g:?}: {f}");
        }
    }
}
