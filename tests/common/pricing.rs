//! Column generation and cut oracles: every LP column, reduced costs by brute force (with
//! subset-row and rank-1 cuts), start partitions and duals, and verified bnp certificates.
//! The rank-1 cut helpers (shared by tests/exact/bnp_rank1.rs and tests/exact/bnp_big_cuts.rs)
//! are a second, integer implementation of the cut coefficients and brute-force reduced costs.
//! Also the budget under which the exact pricing search of a small instance finishes.

use microagg::data::Instance;
use microagg_solvers::bounds::colgen::cuts::CutDuals;
use microagg_solvers::bounds::colgen::pricing::{ExactBudget, ExactPricing, ExactSearch, Geometry};
use std::time::{Duration, Instant};

/// min over all groups S with k <= |S| <= 2k-1 of SSE(S) - y(S) + sum_C w_C [|S ∩ C| >= 2],
/// by enumerating bit masks, with the two-pass SSE and the cut terms counted directly.
pub fn brute_force_min_rc_cuts(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    y: &[f64],
    cuts: &[([u32; 3], f64)],
) -> f64 {
    let mut best = f64::INFINITY;
    for mask in 1u32..(1 << n) {
        let m = mask.count_ones() as usize;
        if m < k || m > 2 * k - 1 {
            continue;
        }
        let members: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
        let pen: f64 = cuts
            .iter()
            .filter(|(t, _)| t.iter().filter(|&&i| mask >> i & 1 == 1).count() >= 2)
            .map(|(_, w)| w)
            .sum();
        let rc = microagg_solvers::sse::group_sse(x, d, &members)
            - members.iter().map(|&i| y[i]).sum::<f64>()
            + pen;
        best = best.min(rc);
    }
    best
}

/// Every group of k..=2k-1 of the n records (sorted members) and its SSE (two-pass): the
/// columns of the LP relaxation, for the restricted master over all of them.
pub fn all_lp_columns(x: &[f64], n: usize, d: usize, k: usize) -> (Vec<Vec<u32>>, Vec<f64>) {
    let mut groups = Vec::new();
    let mut costs = Vec::new();
    for mask in 1u32..(1 << n) {
        let m = mask.count_ones() as usize;
        if m < k || m >= 2 * k {
            continue;
        }
        let members: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
        costs.push(microagg_solvers::sse::group_sse(x, d, &members));
        groups.push(members.iter().map(|&i| i as u32).collect());
    }
    (groups, costs)
}

/// Labels of records 0..n in consecutive chunks of k (the last chunk takes the rest): a
/// feasible start partition.
pub fn chunk_labels(n: usize, k: usize) -> Vec<usize> {
    (0..n).map(|i| (i / k).min(n / k - 1)).collect()
}

/// The groups of [`chunk_labels`]: records `0..n` in consecutive groups of `k` (the last
/// takes the rest), as member lists.
pub fn consecutive_groups(n: usize, k: usize) -> Vec<Vec<u32>> {
    let parts = n / k;
    (0..parts)
        .map(|g| {
            let end = if g + 1 == parts { n } else { (g + 1) * k };
            (g * k..end).map(|i| i as u32).collect()
        })
        .collect()
}

/// The per-record share of the chunk partition's SSE and random duals around it (each in
/// -0.3..2.5 times the share; one draw per record, in record order).
pub fn duals_around_chunks(
    rng: &mut impl rand::Rng,
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
) -> (f64, Vec<f64>) {
    let share = microagg_solvers::sse::partition_sse(x, d, &chunk_labels(n, k)) / n as f64 + 1e-300;
    let y = (0..n)
        .map(|_| share * rng.random_range(-0.3..2.5))
        .collect();
    (share, y)
}

/// The branch-and-price certificate of a bound outcome, checked to verify (for `k`, on
/// `inst`) before it is returned.
pub fn verified_bnp_certificate<'a>(
    b: &'a microagg::bound::BoundOutcome,
    inst: &Instance,
    k: usize,
) -> &'a microagg::bnp_certificate::BnpCertificate {
    let Ok(microagg::bound::Certificate::BranchAndPrice(c)) = &b.certificate else {
        panic!("no bnp certificate: {:?}", b.certificate.as_ref().err());
    };
    assert!(
        microagg::bnp_certificate::verify(c, inst, k, None)
            .unwrap()
            .valid
    );
    c
}

/// A cut's coefficient for a group given as a bit mask, by integer arithmetic (a second
/// implementation of `floor(p(S ∩ C) / q)`, not capped at 1).
pub fn coefficient_by_floor(c: &microagg_solvers::bounds::colgen::cuts::Cut, mask: usize) -> u32 {
    let hits: u32 = c
        .records()
        .iter()
        .zip(c.multipliers())
        .filter(|(&r, _)| mask >> r & 1 == 1)
        .map(|(_, &p)| u32::from(p))
        .sum();
    hits / u32::from(c.denominator())
}

/// Every set partition of `0..n` as group bit masks (restricted growth strings).
pub fn for_each_partition(n: usize, f: &mut dyn FnMut(&[usize])) {
    fn rec(i: usize, n: usize, groups: &mut Vec<usize>, f: &mut dyn FnMut(&[usize])) {
        if i == n {
            f(groups);
            return;
        }
        for g in 0..groups.len() {
            groups[g] |= 1 << i;
            rec(i + 1, n, groups, f);
            groups[g] &= !(1 << i);
        }
        groups.push(1 << i);
        rec(i + 1, n, groups, f);
        groups.pop();
    }
    rec(0, n, &mut Vec::new(), f);
}

pub fn members_of(mask: usize, n: usize) -> Vec<u32> {
    (0..n as u32).filter(|&i| mask >> i & 1 == 1).collect()
}

/// `SSE(S) - y(S) + sum_C w_C floor(p(S ∩ C) / q_C)` by brute force (two-pass SSE).
pub fn rc_brute(
    x: &[f64],
    d: usize,
    y: &[f64],
    cuts: &[microagg_solvers::bounds::colgen::cuts::Cut],
    w: &[f64],
    mask: usize,
) -> f64 {
    let g: Vec<usize> = (0..y.len()).filter(|&i| mask >> i & 1 == 1).collect();
    let pen: f64 = cuts
        .iter()
        .zip(w)
        .map(|(c, w)| w * f64::from(coefficient_by_floor(c, mask)))
        .sum();
    microagg_solvers::sse::group_sse(x, d, &g) - g.iter().map(|&i| y[i]).sum::<f64>() + pen
}

/// `m` distinct records of `0..n`, drawn one by one (repeats redrawn).
pub fn distinct_records(rng: &mut impl rand::Rng, n: usize, m: usize) -> Vec<u32> {
    assert!(m <= n, "{m} distinct records of {n}");
    let mut r: Vec<u32> = Vec::new();
    while r.len() < m {
        let v = rng.random_range(0..n as u32);
        if !r.contains(&v) {
            r.push(v);
        }
    }
    r
}

/// A budget under which the exact pricing search of a small instance finishes: no node
/// limit, a deadline `seconds` away, up to `max_columns` columns kept.
pub fn exact_budget(max_columns: usize, seconds: u64) -> ExactBudget<'static> {
    ExactBudget {
        nodes: u64::MAX,
        deadline: (Instant::now() + Duration::from_secs(seconds)).into(),
        max_columns,
        stop_after_columns: usize::MAX,
    }
}

/// The exact pricing with the cut duals `cuts` at duals `y` (budget [`exact_budget`](100, 60))
/// against the brute-force least reduced cost `truth`: it finishes with the bound
/// min(0, `truth`) within `tol`, and cut short at `nodes` nodes its bound stays below that.
/// Returns the finished search; `case` names the case in the messages.
pub fn assert_exact_pricing_matches(
    geo: &Geometry,
    y: &[f64],
    cuts: &CutDuals,
    (truth, tol): (f64, f64),
    nodes: u64,
    case: &str,
) -> ExactPricing {
    let budget = exact_budget(100, 60);
    let ex = ExactSearch::new(cuts).run(geo, y, budget, &mut Vec::new());
    assert!(ex.exact, "{case}: an unlimited budget must finish");
    assert!(
        (ex.rc_lower_bound - truth.min(0.0)).abs() <= tol,
        "{case}: exact pricing {} vs brute force {truth}",
        ex.rc_lower_bound
    );
    let short = ExactBudget { nodes, ..budget };
    let cut = ExactSearch::new(cuts).run(geo, y, short, &mut Vec::new());
    assert!(
        cut.rc_lower_bound <= truth.min(0.0) + tol,
        "{case}: cut short at {nodes} nodes"
    );
    ex
}

/// A small random pricing instance, as the exact pricing tests draw it: `n` in
/// `6..=max_n` records of `d` in 1..=3 attributes in three clusters (rows `x`), `k` in
/// 2..=3 (at most n / 2), their pricing geometry (pool 6; it holds `n` and `k`) and duals
/// `y` around each record's share of a plausible SSE: `dual_low..1` times a random `scale`,
/// some negative. Returns `(x, d, geo, scale, y)`. The draws are made in that order, so a
/// seeded test sees the cases it always saw.
pub fn random_pricing_case(
    rng: &mut impl rand::Rng,
    max_n: usize,
    dual_low: f64,
) -> (Vec<f64>, usize, Geometry, f64, Vec<f64>) {
    let (n, d, k) = super::random_size(rng, 6..=max_n, 1..=3, 3);
    let x = super::clustered_rows(rng, n, d, 3.0);
    let geo = Geometry::new(&x, n, d, k, 6);
    let scale = rng.random_range(0.2..3.0);
    let y = (0..n)
        .map(|_| rng.random_range(dual_low..1.0) * scale)
        .collect();
    (x, d, geo, scale, y)
}

/// Per group (bit mask, `n <= 12`) of k..2k-1 records: reduced cost (two-pass SSE), members
/// and the set of medoids (members minimising the sum of squared distances to the group, to
/// 1e-12): the brute force the anchored and signed bounds are checked against.
pub fn all_groups_with_medoids(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    y: &[f64],
) -> Vec<(f64, Vec<usize>, Vec<usize>)> {
    let mut out = Vec::new();
    for mask in 1u32..(1 << n) {
        let m = mask.count_ones() as usize;
        if m < k || m > 2 * k - 1 {
            continue;
        }
        let members: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
        let rc = microagg_solvers::sse::group_sse(x, d, &members)
            - members.iter().map(|&i| y[i]).sum::<f64>();
        let star = |r: usize| -> f64 {
            members
                .iter()
                .map(|&b| {
                    (0..d)
                        .map(|c| (x[r * d + c] - x[b * d + c]).powi(2))
                        .sum::<f64>()
                })
                .sum()
        };
        let best = members
            .iter()
            .map(|&r| star(r))
            .fold(f64::INFINITY, f64::min);
        let medoids: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&r| star(r) <= best + 1e-12 * best.abs())
            .collect();
        out.push((rc, members, medoids));
    }
    out
}
