//! # Reduced-cost region dive (a primal heuristic)
//!
//! [`rc_dive`] improves a feasible partition with the duals of a (cut) column-generation
//! bound: the partition's excess over the Lagrangian base, `SSE(P) - (sum y + sum sigma)`,
//! splits into its groups' reduced costs, and on the hard CASC cases a few groups hold most
//! of it (EIA k = 3: five of 1 300 groups hold 2.43 of 2.73). Around each such *seed* group
//! (reduced cost above `min_rc`, most expensive first) the dive takes a *region*: the seed's
//! records and those of the partition's groups with the nearest centroids, whole groups,
//! until it holds `region` records. On that region alone it lists every group of `k..2k-1`
//! records whose reduced cost, at the record duals and the cuts lying inside the region, is
//! at most a threshold (the exact pricing in enumeration mode,
//! `ExactSearch` with `Anchors::Below`, on the region's own geometry), doubling the
//! threshold from `threshold` while the listing stays complete, below `max_pool` groups and
//! below the region's own excess; then the set-partitioning MIP over the listed groups and the
//! region's current groups ([`crate::merge::solve_pool`], HiGHS, at most `mip_seconds`)
//! re-partitions the region. The rest of the partition is untouched, so a better region gives
//! a better partition. Passes over the seeds repeat until one brings no improvement, `passes`
//! is reached or the deadline passes.
//!
//! It is a heuristic: nothing is proven. The groups are chosen by reduced cost only to keep
//! the MIP small; every accepted step is a strictly lower SSE recomputed from the labels (two
//! passes), so the result is a feasible partition never worse than the start. The cuts
//! (subset-row triples and the rank-1 cuts of proofs/P21, any multipliers, denominator and
//! right side, up to 32 records) whose records all lie in the region are kept, renumbered,
//! with their duals (a cut's right side depends only on its multipliers, so it is kept too);
//! the penalties of cuts with a record outside the region are left out of the listing's
//! reduced costs, which only lowers them (more groups listed, never fewer).
//!
//! ## Complexity
//! Per region of m records: O(m^2 d) for its geometry, the enumeration (exponential in the
//! worst case, bounded by `max_pool` groups and the deadline), O(C k d) to cost C groups and
//! the MIP (NP-hard; small regions are solved at the root). O(G d) per seed to order the
//! G groups by centroid distance.
//!
//! ## References
//! - Subramanian, A., Uchoa, E. and Ochi, L. S. (2013). A hybrid algorithm for a class of
//!   vehicle routing problems. Computers & Operations Research 40(10), 2519-2531
//!   (set partitioning over a pool of columns as a primal heuristic).
//! - Baldacci, R., Christofides, N. and Mingozzi, A. (2008). An exact algorithm for the
//!   vehicle routing problem based on the set partitioning formulation with additional cuts.
//!   Math. Programming 115, 351-385 (the MIP over the columns of small reduced cost).

use crate::bounds::colgen::cuts::{Cut, CutDuals};
use crate::bounds::colgen::pricing::{cheap_groups, Geometry};
use crate::merge::{groups_of, solve_pool};
use crate::sse::{group_sse, partition_sse};
use crate::SolverError;
use std::time::{Duration, Instant};

/// Parameters of [`rc_dive`].
#[derive(Debug, Clone)]
pub struct DiveOptions {
    /// Records per region (whole groups are added, so a region may hold up to 2k - 2 more).
    pub region: usize,
    /// Groups of the partition with a reduced cost above this are seeds.
    pub min_rc: f64,
    /// First listing threshold of a region (doubled while the listing stays small).
    pub threshold: f64,
    /// Most groups listed per region (the MIP's size).
    pub max_pool: usize,
    /// Seconds of one region's listing.
    pub list_seconds: f64,
    /// Seconds of one region's MIP.
    pub mip_seconds: f64,
    /// Passes over the seeds (a pass with no improvement ends the dive earlier).
    pub passes: usize,
    /// The dive stops starting regions after this instant.
    pub deadline: Option<Instant>,
}

impl Default for DiveOptions {
    fn default() -> Self {
        DiveOptions {
            region: 40,
            min_rc: 1e-3,
            threshold: 0.01,
            max_pool: 40_000,
            list_seconds: 20.0,
            mip_seconds: 30.0,
            passes: 2,
            deadline: None,
        }
    }
}

/// One region's step.
#[derive(Debug, Clone)]
pub struct DiveStep {
    /// Pass (0-based) and reduced cost of the seed group.
    pub pass: usize,
    pub seed_rc: f64,
    /// Records in the region and its current excess (sum of its groups' reduced costs at the
    /// region's cuts).
    pub records: usize,
    pub excess: f64,
    /// Last listing threshold, groups listed, and whether that listing was complete.
    pub threshold: f64,
    pub listed: usize,
    pub complete: bool,
    /// HiGHS proved the region's MIP optimal over the listed groups.
    pub optimal: bool,
    /// Partition SSE before and after the step (equal when the region did not improve).
    pub sse_before: f64,
    pub sse_after: f64,
    pub seconds: f64,
}

/// Result of [`rc_dive`].
#[derive(Debug, Clone)]
pub struct DiveResult {
    /// Labels of the best partition (numbered in order of first appearance; the start's own
    /// labels when nothing improved), and its SSE (two-pass, of these labels).
    pub labels: Vec<usize>,
    pub sse: f64,
    pub start_sse: f64,
    pub steps: Vec<DiveStep>,
}

/// Improve `start` (a feasible labelling of the `n` rows of `x`, row-major with `d` columns,
/// groups of at least `k`) region by region around its groups of largest reduced cost at the
/// record duals `y` and the cuts with their duals `cuts` (module doc). `progress` sees every
/// step.
#[allow(clippy::too_many_arguments)]
pub fn rc_dive(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    y: &[f64],
    cuts: &CutDuals,
    start: &[usize],
    opts: &DiveOptions,
    progress: &mut dyn FnMut(&DiveStep),
) -> Result<DiveResult, SolverError> {
    crate::error::check_rows(x, n, d, k)?;
    if start.len() != n || y.len() != n {
        return Err(SolverError::BadDimension {
            len: start.len().min(y.len()),
            d: 1,
        });
    }
    if let Some(g) = groups_of(start).iter().find(|g| g.len() < k) {
        return Err(SolverError::backend(format!(
            "the start has a group of {} records, fewer than k = {k}",
            g.len()
        )));
    }
    let start_sse = partition_sse(x, d, start);
    let mut labels = start.to_vec();
    let mut sse = start_sse;
    let mut steps = Vec::new();
    let past = |t: Option<Instant>| t.is_some_and(|t| Instant::now() >= t);
    for pass in 0..opts.passes {
        let before_pass = sse;
        let mut tried: Vec<Vec<u32>> = Vec::new();
        loop {
            if past(opts.deadline) {
                break;
            }
            // Seeds from the current partition: the most expensive group not tried yet in
            // this pass (a changed partition changes its groups, so recompute each time).
            let groups = groups_of(&labels);
            let rc: Vec<f64> = groups.iter().map(|g| group_rc(x, d, g, y, cuts)).collect();
            let Some(seed) = (0..groups.len())
                .filter(|&g| rc[g] > opts.min_rc && !tried.contains(&groups[g]))
                .max_by(|&a, &b| rc[a].total_cmp(&rc[b]).then(b.cmp(&a)))
            else {
                break;
            };
            tried.push(groups[seed].clone());
            let t0 = Instant::now();
            let region = region_around(x, d, &groups, seed, opts.region);
            let step = improve_region(x, d, k, y, cuts, &labels, &region, opts)?;
            let mut s = DiveStep {
                pass,
                seed_rc: rc[seed],
                records: region.len(),
                excess: step.excess,
                threshold: step.threshold,
                listed: step.listed,
                complete: step.complete,
                optimal: step.optimal,
                sse_before: sse,
                sse_after: sse,
                seconds: 0.0,
            };
            if let Some(new_labels) = step.labels {
                // Canonical at once, so that the returned SSE is that of the returned labels
                // to the last bit (the two-pass sum depends on the order of the groups).
                let new_labels = crate::merge::canonical(&new_labels);
                let new_sse = partition_sse(x, d, &new_labels);
                if new_sse < sse {
                    labels = new_labels;
                    sse = new_sse;
                    s.sse_after = sse;
                }
            }
            s.seconds = t0.elapsed().as_secs_f64();
            progress(&s);
            steps.push(s);
        }
        if sse >= before_pass || past(opts.deadline) {
            break;
        }
    }
    Ok(DiveResult {
        labels,
        sse,
        start_sse,
        steps,
    })
}

/// `SSE(S) - y(S) + pen(S)` of a group.
fn group_rc(x: &[f64], d: usize, g: &[u32], y: &[f64], cuts: &CutDuals) -> f64 {
    let m: Vec<usize> = g.iter().map(|&i| i as usize).collect();
    group_sse(x, d, &m) - m.iter().map(|&i| y[i]).sum::<f64>() + cuts.penalty(g)
}

/// The seed group's records and those of the groups with the nearest centroids (whole
/// groups, nearest first, ties by index) until `size` records; sorted.
fn region_around(x: &[f64], d: usize, groups: &[Vec<u32>], seed: usize, size: usize) -> Vec<u32> {
    let centroid = |g: &[u32]| -> Vec<f64> {
        let mut c = vec![0.0; d];
        for &i in g {
            for (cj, xj) in c.iter_mut().zip(&x[i as usize * d..(i as usize + 1) * d]) {
                *cj += xj;
            }
        }
        c.iter_mut().for_each(|v| *v /= g.len() as f64);
        c
    };
    let cs = centroid(&groups[seed]);
    let mut order: Vec<(f64, usize)> = groups
        .iter()
        .enumerate()
        .map(|(g, members)| {
            let c = centroid(members);
            (c.iter().zip(&cs).map(|(a, b)| (a - b) * (a - b)).sum(), g)
        })
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut region: Vec<u32> = groups[seed].clone();
    for &(_, g) in &order {
        if region.len() >= size {
            break;
        }
        if g != seed {
            region.extend_from_slice(&groups[g]);
        }
    }
    region.sort_unstable();
    region
}

struct RegionStep {
    labels: Option<Vec<usize>>,
    excess: f64,
    threshold: f64,
    listed: usize,
    complete: bool,
    optimal: bool,
}

/// Lists the region's cheap groups and re-partitions it by the pool MIP; `labels` is the
/// whole new labelling when the MIP found a strictly better region.
#[allow(clippy::too_many_arguments)]
fn improve_region(
    x: &[f64],
    d: usize,
    k: usize,
    y: &[f64],
    cuts: &CutDuals,
    labels: &[usize],
    region: &[u32],
    opts: &DiveOptions,
) -> Result<RegionStep, SolverError> {
    let m = region.len();
    let local = |i: u32| region.binary_search(&i).ok();
    let xs: Vec<f64> = region
        .iter()
        .flat_map(|&i| x[i as usize * d..(i as usize + 1) * d].iter().copied())
        .collect();
    let ys: Vec<f64> = region.iter().map(|&i| y[i as usize]).collect();
    let sub_cuts = cuts_inside(cuts, m, local);
    let sub_labels: Vec<usize> = region.iter().map(|&i| labels[i as usize]).collect();
    let current = groups_of(&sub_labels);
    let rcs: Vec<f64> = current
        .iter()
        .map(|g| group_rc(&xs, d, g, &ys, &sub_cuts))
        .collect();
    let excess: f64 = rcs.iter().sum();
    // Without the cuts that leave the region some reduced costs are negative; the listing
    // goes up to the positive part of the excess (the region's expensive groups' total).
    let positive: f64 = rcs.iter().map(|r| r.max(0.0)).sum();
    let geo = Geometry::new(&xs, m, d, k, (3 * k).max(12).min(m - 1));
    let deadline = Instant::now() + Duration::from_secs_f64(opts.list_seconds);
    // With non-negative reduced costs, doubling past the region's excess lists nothing a
    // better region needs (its groups' reduced costs sum to less than that excess).
    let range = (opts.threshold, positive);
    let listed = cheap_groups(&geo, &ys, &sub_cuts, range, opts.max_pool, deadline.into());
    let (pool, used, complete) = (listed.groups, listed.threshold, listed.complete);
    let r = solve_pool(&xs, m, d, k, &pool, &sub_labels, Some(opts.mip_seconds))?;
    let labels = r.improved.then(|| {
        // Region labels above every current label keep the groups apart.
        let base = labels.iter().max().map_or(0, |&l| l + 1);
        let mut new = labels.to_vec();
        for (p, &i) in region.iter().enumerate() {
            new[i as usize] = base + r.labels[p];
        }
        new
    });
    Ok(RegionStep {
        labels,
        excess,
        threshold: used,
        listed: pool.len(),
        complete,
        optimal: r.optimal,
    })
}

/// The cuts whose records all lie in the region (`local` maps a record to its index there),
/// renumbered, each with its multipliers, denominator and dual (`-w`, P14 / P21).
fn cuts_inside(cuts: &CutDuals, m: usize, local: impl Fn(u32) -> Option<usize>) -> CutDuals {
    let mut kept = Vec::new();
    let mut sigma = Vec::new();
    for (cut, &w) in cuts.cuts.iter().zip(&cuts.weights) {
        let records: Option<Vec<u32>> = cut
            .records()
            .iter()
            .map(|&i| local(i).map(|l| l as u32))
            .collect();
        if let Some(records) = records {
            // Renumbering keeps the records distinct and the multipliers valid.
            let c = Cut::new(&records, cut.multipliers(), cut.denominator())
                .expect("a renumbered valid cut is valid");
            kept.push(c);
            sigma.push(-w);
        }
    }
    if kept.is_empty() {
        CutDuals::none()
    } else {
        CutDuals::new(m, &kept, &sigma)
    }
}
