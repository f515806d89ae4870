//! Shared helpers for the integration tests.
#![allow(dead_code)]

use microagg::data::{self, ColumnSelection, Instance};
use std::process::{Command, Output};

/// A CASC instance, or None (with a note) when its file is not found. With
/// `MICROAGG_REQUIRE_DATA=1` (set by `.ci/run`) a missing file fails the test instead.
pub fn casc(id: &str) -> Option<Instance> {
    match data::load(id, &ColumnSelection::All) {
        Ok(inst) => Some(inst),
        Err(e) => {
            if std::env::var("MICROAGG_REQUIRE_DATA").is_ok_and(|v| v == "1") {
                panic!("MICROAGG_REQUIRE_DATA=1 but {id} is unavailable: {e}");
            }
            eprintln!("skipping {id}: {e}");
            None
        }
    }
}

/// An instance from a generator spec.
pub fn synthetic(spec: &str) -> Instance {
    data::load(spec, &ColumnSelection::All).expect("generator spec is valid")
}

/// An instance from in-memory rows (d columns named x1..xd).
pub fn from_rows(rows: &[Vec<f64>]) -> Instance {
    let d = rows[0].len();
    let raw: Vec<f64> = rows.iter().flatten().copied().collect();
    let cols = (1..=d).map(|j| format!("x{j}")).collect();
    Instance::from_raw("rows", "rows", cols, raw, "test".into()).expect("valid rows")
}

/// Run a single-stage pipeline and return (sse, labels).
pub fn run_method(inst: &Instance, method: &str, k: usize, seed: u64) -> (f64, Vec<usize>) {
    let never = std::sync::atomic::AtomicBool::new(false);
    let out = microagg::pipeline::Pipeline::parse(method, &[])
        .expect("known method")
        .run(inst, k, seed, None, &never)
        .unwrap_or_else(|e| panic!("{method} on {} k={k}: {e}", inst.name));
    (out.partition.sse(), out.partition.labels().to_vec())
}

/// Groups as sorted lists of record ids, sorted, from labels.
pub fn groups(labels: &[usize]) -> Vec<Vec<usize>> {
    let mut by_label: Vec<Vec<usize>> = vec![Vec::new(); labels.iter().max().map_or(0, |m| m + 1)];
    for (i, &l) in labels.iter().enumerate() {
        by_label[l].push(i);
    }
    let mut gs: Vec<Vec<usize>> = by_label.into_iter().filter(|g| !g.is_empty()).collect();
    gs.sort();
    gs
}

pub fn line(values: &[f64]) -> Instance {
    from_rows(&values.iter().map(|&v| vec![v]).collect::<Vec<_>>())
}

/// Optimal univariate k-partition SSE of one attribute: groups of k..2k-1 consecutive sorted
/// values (some optimal partition has this form; Domingo-Ferrer & Mateo-Sanz 2002, Hansen &
/// Mukherjee 2003). A multivariate partition's SSE is the sum over attributes of its
/// per-attribute SSE, each at least that attribute's optimum, so the sum of the optima is a
/// lower bound on any feasible SSE.
pub fn univariate_optimum(mut v: Vec<f64>, k: usize) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let (mut s, mut s2) = (vec![0.0; n + 1], vec![0.0; n + 1]);
    for i in 0..n {
        s[i + 1] = s[i] + v[i];
        s2[i + 1] = s2[i] + v[i] * v[i];
    }
    let sse = |a: usize, b: usize| {
        let m = (b - a) as f64;
        let t = s[b] - s[a];
        ((s2[b] - s2[a]) - t * t / m).max(0.0)
    };
    let mut dp = vec![f64::INFINITY; n + 1];
    dp[0] = 0.0;
    for b in k..=n {
        for size in k..=(2 * k - 1).min(b) {
            let cand = dp[b - size] + sse(b - size, b);
            if cand < dp[b] {
                dp[b] = cand;
            }
        }
    }
    dp[n]
}

pub fn attribute_sum_lower_bound(inst: &Instance, k: usize) -> f64 {
    (0..inst.d)
        .map(|j| univariate_optimum((0..inst.n).map(|i| inst.row(i)[j]).collect(), k))
        .sum()
}

/// Minimum SSE over all set partitions of rows 0..n into groups of at least k, by
/// enumerating restricted growth strings (labels[i] <= 1 + max label so far): every set
/// partition exactly once, no size restriction beyond >= k. Independent of the solver (no
/// size cap at 2k-1, no DP, no LP).
pub fn brute_force_optimum(x: &[f64], n: usize, d: usize, k: usize) -> f64 {
    #[allow(clippy::too_many_arguments)]
    fn rec(
        i: usize,
        labels: &mut Vec<usize>,
        groups: usize,
        x: &[f64],
        n: usize,
        d: usize,
        k: usize,
        best: &mut f64,
    ) {
        if i == n {
            let mut sizes = vec![0usize; groups];
            labels.iter().for_each(|&l| sizes[l] += 1);
            if sizes.iter().all(|&s| s >= k) {
                let sse = microagg_solvers::sse::partition_sse(x, d, labels);
                if sse < *best {
                    *best = sse;
                }
            }
            return;
        }
        // Prune: the records left must be able to bring every open group up to k.
        let mut sizes = vec![0usize; groups];
        labels.iter().for_each(|&l| sizes[l] += 1);
        let deficit: usize = sizes.iter().map(|&s| k.saturating_sub(s)).sum();
        if deficit > n - i {
            return;
        }
        for l in 0..=groups {
            labels.push(l);
            rec(i + 1, labels, groups.max(l + 1), x, n, d, k, best);
            labels.pop();
        }
    }
    let mut best = f64::INFINITY;
    rec(0, &mut Vec::new(), 0, x, n, d, k, &mut best);
    best
}

/// Run the `microagg` binary with `args`.
pub fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_microagg"))
        .args(args)
        .output()
        .expect("binary runs")
}

/// Run the `microagg` binary and require a zero exit (the failure message shows stderr).
pub fn cli_ok(args: &[&str]) -> Output {
    let out = cli(args);
    assert!(
        out.status.success(),
        "microagg {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `n` rows of `d` values in three clusters `spacing` apart (row i in cluster i mod 3, each
/// value jittered uniformly in [-1, 1)), row-major.
pub fn clustered_rows(rng: &mut impl rand::Rng, n: usize, d: usize, spacing: f64) -> Vec<f64> {
    (0..n * d)
        .map(|t| ((t / d) % 3) as f64 * spacing + rng.random_range(-1.0..1.0))
        .collect()
}

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
