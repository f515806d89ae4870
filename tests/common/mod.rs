//! Shared helpers for the integration tests.
#![allow(dead_code)]

use microagg::data::{self, ColumnSelection, Instance};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A CASC instance, or None (with a note) when its file is not found. With
/// `MICROAGG_REQUIRE_DATA=1` (set by `.ci/run`) a missing file fails the test instead.
pub fn casc(id: &str) -> Option<Instance> {
    match data::load(id, &ColumnSelection::All) {
        Ok(inst) => Some(inst),
        Err(e) => {
            if data_required() {
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
    let mut best = f64::INFINITY;
    for_each_set_partition(n, k, &mut |labels| {
        let sse = microagg_solvers::sse::partition_sse(x, d, labels);
        if sse < best {
            best = sse;
        }
    });
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

/// True when `MICROAGG_REQUIRE_DATA=1` (set by `.ci/run`): then a missing CASC file fails
/// the test instead of skipping it.
pub fn data_required() -> bool {
    std::env::var("MICROAGG_REQUIRE_DATA").is_ok_and(|v| v == "1")
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

/// A command's standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A command's standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The one JSON object a command printed on standard output.
pub fn stdout_json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

/// Run the `microagg` binary, require a zero exit and return its JSON record.
pub fn cli_json(args: &[&str]) -> serde_json::Value {
    stdout_json(&cli_ok(args))
}

/// Run the `microagg` binary, require a failure (non-zero exit) and return its stderr.
pub fn cli_err(args: &[&str]) -> String {
    let o = cli(args);
    assert!(!o.status.success(), "{args:?} succeeded");
    stderr(&o)
}

/// The arguments `run --data DATA --k K --method METHOD`, then `extra`.
pub fn run_args<'a>(data: &'a str, k: &'a str, method: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["run", "--data", data, "--k", k, "--method", method];
    args.extend_from_slice(extra);
    args
}

/// The arguments `COMMAND --data DATA --weights w --k K` (weights in the column named `w`),
/// then `extra`.
pub fn weighted_args<'a>(
    command: &'a str,
    data: &'a str,
    k: &'a str,
    extra: &[&'a str],
) -> Vec<&'a str> {
    let mut args = vec![command, "--data", data, "--weights", "w", "--k", k];
    args.extend_from_slice(extra);
    args
}

/// Write `text` to the file `name` in `dir` and return its path.
pub fn write_file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Write `rows` as a CSV file with columns x1..xd, every value in `{:e}` (exact round trip).
pub fn write_rows_csv(path: &Path, rows: &[Vec<f64>]) {
    let d = rows[0].len();
    let mut s = (1..=d)
        .map(|j| format!("x{j}"))
        .collect::<Vec<_>>()
        .join(",")
        + "\n";
    for r in rows {
        s += &r
            .iter()
            .map(|v| format!("{v:e}"))
            .collect::<Vec<_>>()
            .join(",");
        s += "\n";
    }
    std::fs::write(path, s).unwrap();
}

/// Calls `visit` with the labels of every set partition of records 0..n into groups of at
/// least `k` records, each once, as restricted growth strings (record i's label is at most
/// one more than the largest label before it) in lexicographic order. Branches that cannot
/// bring every open group up to `k` are cut. Independent of the solvers (no size cap at
/// 2k-1, no DP, no LP). O(Bell(n)) calls at most.
pub fn for_each_set_partition(n: usize, k: usize, visit: &mut dyn FnMut(&[usize])) {
    fn rec(
        n: usize,
        k: usize,
        labels: &mut Vec<usize>,
        sizes: &mut Vec<usize>,
        visit: &mut dyn FnMut(&[usize]),
    ) {
        // Prune: the records left must be able to bring every open group up to k.
        let deficit: usize = sizes.iter().map(|&s| k.saturating_sub(s)).sum();
        if deficit > n - labels.len() {
            return;
        }
        if labels.len() == n {
            visit(labels);
            return;
        }
        for l in 0..=sizes.len() {
            if l == sizes.len() {
                sizes.push(0);
            }
            sizes[l] += 1;
            labels.push(l);
            rec(n, k, labels, sizes, visit);
            labels.pop();
            sizes[l] -= 1;
            if sizes[l] == 0 {
                sizes.pop();
            }
        }
    }
    rec(n, k, &mut Vec::new(), &mut Vec::new(), visit);
}

/// The members of each group 0..g of `labels`, in record order.
pub fn members_by_label(labels: &[usize]) -> Vec<Vec<usize>> {
    let g = labels.iter().max().map_or(0, |m| m + 1);
    let mut members = vec![Vec::new(); g];
    for (i, &l) in labels.iter().enumerate() {
        members[l].push(i);
    }
    members
}

/// Weighted SSE of one group by the pairwise identity
/// `sum_{i<j} w_i w_j ||x_i - x_j||^2 / sum w` (P40 W1(c); no centroid: an independent
/// formula).
pub fn pairwise_weighted_sse(x: &[f64], d: usize, w: &[f64], members: &[usize]) -> f64 {
    let total: f64 = members.iter().map(|&i| w[i]).sum();
    let mut s = 0.0;
    for (a, &i) in members.iter().enumerate() {
        for &j in &members[a + 1..] {
            let dist: f64 = (0..d).map(|t| (x[i * d + t] - x[j * d + t]).powi(2)).sum();
            s += w[i] * w[j] * dist;
        }
    }
    s / total
}

/// Minimum weighted SSE over every set partition of the n records into groups of at least
/// k records ([`for_each_set_partition`]), by the pairwise formula.
pub fn brute_force_weighted_optimum(x: &[f64], d: usize, k: usize, w: &[f64]) -> f64 {
    let mut best = f64::INFINITY;
    for_each_set_partition(w.len(), k, &mut |labels| {
        let sse: f64 = members_by_label(labels)
            .iter()
            .map(|g| pairwise_weighted_sse(x, d, w, g))
            .sum();
        best = best.min(sse);
    });
    best
}

/// An adversarial small weighted instance (row-major x, weights): uniform rows in
/// [-2, 2), some duplicated, some moved to a far cluster (+1000), with `scaled` all
/// multiplied by 1e-9, 1 or 1e9; weights log-uniform in 1e-3..1e3 or drawn from
/// {1e-3, 1, 1e3} (ties).
pub fn adversarial_weighted(
    rng: &mut impl rand::Rng,
    n: usize,
    d: usize,
    scaled: bool,
) -> (Vec<f64>, Vec<f64>) {
    let mut x: Vec<f64> = (0..n * d).map(|_| rng.random_range(-2.0..2.0)).collect();
    if rng.random_range(0..2) == 0 {
        // Duplicate rows.
        for _ in 0..rng.random_range(1..=n / 2) {
            let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
            for t in 0..d {
                x[b * d + t] = x[a * d + t];
            }
        }
    }
    if rng.random_range(0..2) == 0 {
        // A far cluster.
        for i in 0..rng.random_range(1..=n / 2) {
            for t in 0..d {
                x[i * d + t] += 1000.0;
            }
        }
    }
    if scaled {
        let scale = [1e-9, 1.0, 1e9][rng.random_range(0..3)];
        for v in &mut x {
            *v *= scale;
        }
    }
    let ties = rng.random_range(0..3) == 0;
    let w = (0..n)
        .map(|_| {
            if ties {
                [1e-3, 1.0, 1e3][rng.random_range(0..3)]
            } else {
                10f64.powf(rng.random_range(-3.0..3.0))
            }
        })
        .collect();
    (x, w)
}

/// Write a CSV file `a,b,w` of `n` records to `path`: each weight log-uniform in
/// 1e-3..1e3, then a and b uniform in [-5, 5). Returns the weights.
pub fn write_weighted_csv(path: &Path, rng: &mut impl rand::Rng, n: usize) -> Vec<f64> {
    let mut text = "a,b,w\n".to_string();
    let mut w = Vec::new();
    for _ in 0..n {
        let wi = 10f64.powf(rng.random_range(-3.0..3.0));
        w.push(wi);
        text += &format!(
            "{},{},{wi}\n",
            rng.random_range(-5.0..5.0),
            rng.random_range(-5.0..5.0)
        );
    }
    std::fs::write(path, text).unwrap();
    w
}

/// Require the exit status `code` and `needle` in the standard error.
pub fn assert_exit(o: &Output, code: i32, needle: &str) {
    assert_eq!(o.status.code(), Some(code));
    assert!(stderr(o).contains(needle), "{}", stderr(o));
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

/// Chettri & Borah (2012) Table 1 prints SSE with SST = n * d (population standard
/// deviations): the instance's SST must agree before its values are compared.
pub fn assert_table1_sst(inst: &Instance) {
    let nd = (inst.n * inst.d) as f64;
    assert!(
        (inst.sst - nd).abs() < 1e-9 * nd,
        "SST {} != n*d {nd}",
        inst.sst
    );
}

/// An SSE within `tol` of the value Table 1 prints for (`method`, `id`, `k`).
pub fn assert_table1_sse(method: &str, id: &str, k: usize, sse: f64, want: f64, tol: f64) {
    assert!(
        (sse - want).abs() <= tol,
        "{method} {id} k={k}: SSE {sse:.4} but Table 1 prints {want} (tolerance {tol:.4})"
    );
}

/// Rows of one of six adversarial families (row-major, n x d), chosen by `case % 6`: uniform,
/// duplicates (three distinct rows), ties (a small integer grid), scaled by 10^-9..10^9, two far
/// clusters with a tiny spread, outliers (two far records beside a tight blob).
pub fn adversarial_family(rng: &mut impl rand::Rng, case: usize, n: usize, d: usize) -> Vec<f64> {
    match case % 6 {
        // Uniform.
        0 => (0..n * d).map(|_| rng.random_range(-2.0..2.0)).collect(),
        // Duplicates: few distinct rows.
        1 => {
            let distinct: Vec<f64> = (0..3 * d).map(|_| rng.random_range(-1.0..1.0)).collect();
            (0..n)
                .flat_map(|_| {
                    let r = rng.random_range(0..3);
                    distinct[r * d..(r + 1) * d].to_vec()
                })
                .collect()
        }
        // Ties: small integer grid.
        2 => (0..n * d).map(|_| rng.random_range(0..3) as f64).collect(),
        // Scaled: uniform times 10^e, e in -9..9.
        3 => {
            let s = 10f64.powi(rng.random_range(-9..=9));
            (0..n * d)
                .map(|_| s * rng.random_range(-1.0..1.0))
                .collect()
        }
        // Two far clusters with tiny spread.
        4 => (0..n * d)
            .map(|t| {
                let c = if (t / d).is_multiple_of(2) {
                    0.0
                } else {
                    100.0
                };
                c + 1e-3 * rng.random_range(-1.0..1.0)
            })
            .collect(),
        // Outliers: a tight blob and a few far records.
        _ => (0..n * d)
            .map(|t| {
                if (t / d) < 2 {
                    rng.random_range(-50.0..50.0)
                } else {
                    rng.random_range(-0.1..0.1)
                }
            })
            .collect(),
    }
}

/// Optimum over partitions into groups of k..=2k-1 records by a DP over subsets (the group
/// of the lowest remaining record), two-pass group SSE; independent of the solver.
pub fn subset_dp(x: &[f64], n: usize, d: usize, k: usize) -> f64 {
    subset_dp_where(x, n, d, k, |_| true)
}

/// [`subset_dp`] over the partitions whose every group (a bit mask of records) passes
/// `allowed`; infinite when no such partition exists.
pub fn subset_dp_where(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    allowed: impl Fn(usize) -> bool,
) -> f64 {
    let full = (1usize << n) - 1;
    let mut f = vec![f64::INFINITY; full + 1];
    f[0] = 0.0;
    for mask in 1..=full {
        let low = mask & mask.wrapping_neg();
        let rest = mask ^ low;
        // Subsets of `rest`, each with the lowest record added.
        let mut sub = rest;
        loop {
            let g = sub | low;
            let m = g.count_ones() as usize;
            if m >= k && m < 2 * k && allowed(g) && f[mask ^ g].is_finite() {
                let members: Vec<usize> = (0..n).filter(|&i| g >> i & 1 == 1).collect();
                f[mask] =
                    f[mask].min(f[mask ^ g] + microagg_solvers::sse::group_sse(x, d, &members));
            }
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & rest;
        }
    }
    f[full]
}

/// Labels of records 0..n in consecutive chunks of k (the last chunk takes the rest): a
/// feasible start partition.
pub fn chunk_labels(n: usize, k: usize) -> Vec<usize> {
    (0..n).map(|i| (i / k).min(n / k - 1)).collect()
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

// Rank-1 cut helpers shared by tests/exact/bnp_rank1.rs and tests/exact/bnp_big_cuts.rs (a second,
// integer implementation of the cut coefficients and brute-force reduced costs).

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
