//! Issue 22 (22-weights): sampling weights with missing values (`--weights` with `--missing
//! ignore`). A hand computation on a four-record file (weighted masked SSE, SST, IL, the
//! released weighted group means kept and filled); the library's weighted masked SSE on
//! every partition of small instances with holes and weights against an independent
//! pairwise recomputation (brute force over partitions); the weighted SSE the CLI reports
//! (unsplit and with strata) equal to a recomputation from its labels and the raw values;
//! the descent on both: its deltas against recomputation and a recomputed local optimum.

use crate::common;
use crate::holes::z_of;
use common::{argv, cli, cli_json, cli_ok, stdout_json as json, write_file as write};

const HAND: &str = "id,a,b,w\nr1,-3,1,1\nr2,-1,NA,3\nr3,1,2,2\nr4,,5,2\n";

/// `run --data DATA --columns a,b --weights w --k 2 --method METHOD --missing ignore` (the
/// hand file's columns), then `extra`.
fn hand_run<'a>(data: &'a str, method: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let fixed = "--columns a,b --weights w --k 2 --method";
    let head = argv(&["run", "--data", data], fixed, &[method]);
    argv(&head, "--missing ignore", extra)
}

#[test]
fn weighted_masked_figures_and_release_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "h.csv", HAND);
    let (l, m) = (dir.path().join("l.txt"), dir.path().join("m.csv"));
    let rec = cli_json(&hand_run(
        f.to_str().unwrap(),
        "mdav",
        &[
            "--labels-out",
            l.to_str().unwrap(),
            "--masked-out",
            m.to_str().unwrap(),
            "--json",
        ],
    ));
    assert_eq!(microagg::labels::read_labels(&l).unwrap(), vec![0, 0, 1, 1]);
    // Column a observed -3, -1, 1 (sd^2 = 8/3), column b observed 1, 2, 5 (sd^2 = 26/9).
    // {r1, r2}: a weights 1, 3 -> weighted mean -1.5, weighted SSE 1 (1.5^2) + 3 (0.5^2) = 3;
    //           b only r1 -> 0.
    // {r3, r4}: a only r3 -> 0; b weights 2, 2 -> mean 3.5, SSE 2 (1.5^2) + 2 (1.5^2) = 9.
    // SST: a weights 1, 3, 2 about -2/3: 49/9 + 3/9 + 50/9 = 102/9; b weights 1, 2, 2 about
    // 3: 4 + 2 + 8 = 14. In z units each column's sums are divided by its sd^2.
    let sse = 3.0 * 3.0 / 8.0 + 9.0 * 9.0 / 26.0;
    let sst = 102.0 / 9.0 * 3.0 / 8.0 + 14.0 * 9.0 / 26.0;
    let w = &rec["weights"];
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs();
    assert!(close(w["sse"].as_f64().unwrap(), sse), "{w}");
    assert!(close(w["sst"].as_f64().unwrap(), sst), "{w}");
    assert!(close(w["il"].as_f64().unwrap(), 100.0 * sse / sst), "{w}");
    assert_eq!(w["objective"], "unweighted");
    assert_eq!(w["total"], 8.0);
    // Released: the weighted group means over the observed cells, holes kept.
    assert_eq!(
        std::fs::read_to_string(&m).unwrap(),
        "id,a,b,w\nr1,-1.5,1,1\nr2,-1.5,NA,3\nr3,1,3.5,2\nr4,,3.5,2\n"
    );
    let rw = rec["release"]["il_released_weighted"].as_f64().unwrap();
    assert!(close(rw, 100.0 * sse / sst), "{rw}");
    // Filled: a hole gets its group's weighted mean over the observed cells.
    let m2 = dir.path().join("m2.csv");
    cli_ok(&hand_run(
        f.to_str().unwrap(),
        "mdav",
        &[
            "--masked-out",
            m2.to_str().unwrap(),
            "--missing-release",
            "fill",
        ],
    ));
    assert_eq!(
        std::fs::read_to_string(&m2).unwrap(),
        "id,a,b,w\nr1,-1.5,1,1\nr2,-1.5,1,3\nr3,1,3.5,2\nr4,1,3.5,2\n"
    );
}

/// Deterministic pseudo-random numbers in [0, 1).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Raw values with holes (None), n x d: every record keeps one cell, every column three.
fn holes_instance(rng: &mut Lcg, n: usize, d: usize, holes: usize) -> Vec<Option<f64>> {
    let mut raw: Vec<Option<f64>> = (0..n * d)
        .map(|_| Some((rng.next() * 40.0).round() / 4.0))
        .collect();
    let mut made = 0;
    while made < holes {
        let c = (rng.next() * (n * d) as f64) as usize;
        let (i, j) = (c / d, c % d);
        let row_left = (0..d).filter(|&t| raw[i * d + t].is_some()).count();
        let col_left = (0..n).filter(|&t| raw[t * d + j].is_some()).count();
        if raw[c].is_some() && row_left > 1 && col_left > 3 {
            raw[c] = None;
            made += 1;
        }
    }
    raw
}

/// A CSV file of `raw` (n x d, holes as NA) with columns c0.. and a weights column `w`,
/// led with `strata` by a column `g` alternating p, q.
fn holes_csv(raw: &[Option<f64>], d: usize, w: &[f64], strata: bool) -> String {
    let names: Vec<String> = (0..d).map(|j| format!("c{j}")).collect();
    let mut text = format!("{}{},w\n", if strata { "g," } else { "" }, names.join(","));
    for (i, wi) in w.iter().enumerate() {
        let cells: Vec<String> = (0..d)
            .map(|j| raw[i * d + j].map_or("NA".to_string(), |v| v.to_string()))
            .collect();
        let lead = if strata { ["p,", "q,"][i % 2] } else { "" };
        text += &format!("{lead}{},{wi}\n", cells.join(","));
    }
    text
}

/// `run --data DATA --columns c0,c1,c2 --weights w --k K --method METHOD --missing ignore
/// --json --labels-out LABELS` on a file of [`holes_csv`].
fn holes_run<'a>(data: &'a str, k: &'a str, method: &'a str, labels: &'a str) -> Vec<&'a str> {
    let head = argv(
        &["run", "--data", data],
        "--columns c0,c1,c2 --weights w --k",
        &[k],
    );
    let head = argv(&head, "--method", &[method]);
    argv(&head, "--missing ignore --json --labels-out", &[labels])
}

/// Weighted masked SSE by the pairwise identity (P40 W1 per column over observed cells):
/// sum over groups and columns of sum_{i < l observed} w_i w_l (z_i - z_l)^2 / W_Gj.
fn pairwise_weighted_sse(z: &[Option<f64>], w: &[f64], d: usize, labels: &[usize]) -> f64 {
    sum_over_group_columns(z, w, d, labels, |obs, wsum| {
        let mut s = 0.0;
        for a in 0..obs.len() {
            for b in a + 1..obs.len() {
                s += obs[a].1 * obs[b].1 * (obs[a].0 - obs[b].0).powi(2);
            }
        }
        s / wsum
    })
}

/// Weighted masked SSE from group means (the definition), computed here.
fn weighted_sse_by_means(z: &[Option<f64>], w: &[f64], d: usize, labels: &[usize]) -> f64 {
    sum_over_group_columns(z, w, d, labels, |obs, wsum| {
        let c = obs.iter().map(|p| p.0 * p.1).sum::<f64>() / wsum;
        obs.iter().map(|p| p.1 * (p.0 - c).powi(2)).sum::<f64>()
    })
}

/// The sum over groups and columns of `term(observed (z, w) cells, their total weight)`,
/// over the (group, column) pairs with observed weight.
fn sum_over_group_columns(
    z: &[Option<f64>],
    w: &[f64],
    d: usize,
    labels: &[usize],
    term: impl Fn(&[(f64, f64)], f64) -> f64,
) -> f64 {
    let n = labels.len();
    let mut total = 0.0;
    for g in 0..=*labels.iter().max().unwrap() {
        for j in 0..d {
            let obs: Vec<(f64, f64)> = (0..n)
                .filter(|&i| labels[i] == g)
                .filter_map(|i| z[i * d + j].map(|v| (v, w[i])))
                .collect();
            let wsum: f64 = obs.iter().map(|p| p.1).sum();
            if wsum > 0.0 {
                total += term(&obs, wsum);
            }
        }
    }
    total
}

/// All set partitions of 0..n into groups of at least k (restricted growth strings).
fn partitions(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn rec(i: usize, n: usize, labels: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if i == n {
            out.push(labels.clone());
            return;
        }
        let next = labels.iter().max().map_or(0, |m| m + 1);
        for l in 0..=next {
            labels.push(l);
            rec(i + 1, n, labels, out);
            labels.pop();
        }
    }
    let mut all = Vec::new();
    rec(0, n, &mut Vec::new(), &mut all);
    all.retain(|l| {
        let g = l.iter().max().unwrap() + 1;
        (0..g).all(|c| l.iter().filter(|&&x| x == c).count() >= k)
    });
    all
}

fn instance_of(raw: &[Option<f64>], d: usize, w: &[f64]) -> microagg::data::Instance {
    let values: Vec<f64> = raw.iter().map(|v| v.unwrap_or(f64::NAN)).collect();
    let cols = (0..d).map(|j| format!("c{j}")).collect();
    let mut inst =
        microagg::data::Instance::from_raw_missing("t", "t", cols, values, String::new()).unwrap();
    inst.weights = Some(microagg::data::Weights::new("w", w.to_vec()).unwrap());
    inst
}

/// On every partition (groups >= 2) of 8 records with holes and weights 10^U(-1, 2): the
/// library's weighted masked SSE equals the pairwise identity computed here, the weighted
/// masked centroid is the minimiser (a shifted centre costs W_Gj delta^2 more), and with
/// unit weights the weighted figure is the unweighted masked SSE.
#[test]
fn weighted_masked_sse_of_every_partition_against_the_pairwise_identity() {
    let (n, d, k) = (8, 3, 2);
    let mut rng = Lcg(2222);
    let all = partitions(n, k);
    assert_eq!(all.len(), 715, "partitions of 8 into groups of >= 2");
    for (case, holes) in [(0, 3), (1, 6), (2, 9), (3, 0)] {
        let raw = holes_instance(&mut rng, n, d, holes);
        let w: Vec<f64> = (0..n).map(|_| 10f64.powf(rng.next() * 3.0 - 1.0)).collect();
        let inst = instance_of(&raw, d, &w);
        let z = z_of(&raw, n, d);
        let ones = vec![1.0; n];
        let unit = instance_of(&raw, d, &ones);
        for labels in &all {
            let lib = microagg::weighted::weighted_sse_of_labels(&inst, &w, labels);
            let pair = pairwise_weighted_sse(&z, &w, d, labels);
            let means = weighted_sse_by_means(&z, &w, d, labels);
            let scale = pair.abs().max(1e-12);
            assert!(
                (lib - pair).abs() <= 1e-10 * scale,
                "case {case} {labels:?}: {lib} vs {pair}"
            );
            assert!(
                (lib - means).abs() <= 1e-10 * scale,
                "case {case}: {lib} vs {means}"
            );
            if holes > 0 {
                let plain = microagg::missing::sse(&unit, labels);
                let u = microagg::weighted::weighted_sse_of_labels(&unit, &ones, labels);
                assert!(
                    (u - plain).abs() <= 1e-12 * plain.max(1e-12),
                    "{u} vs {plain}"
                );
            }
        }
        // The minimiser: for group {0, 1, 2} and every column, shifting the centre by delta
        // raises the group's column term by W delta^2 (P40 W7).
        if holes > 0 {
            let members = [0usize, 1, 2];
            let c =
                microagg::missing::figures::masked_centroid_and_sse(&inst, Some(&w), &members).0;
            for j in 0..d {
                let Some(cj) = c[j] else { continue };
                let obs: Vec<usize> = members
                    .iter()
                    .copied()
                    .filter(|&i| z[i * d + j].is_some())
                    .collect();
                let f = |centre: f64| -> f64 {
                    obs.iter()
                        .map(|&i| w[i] * (z[i * d + j].unwrap() - centre).powi(2))
                        .sum()
                };
                let wsum: f64 = obs.iter().map(|&i| w[i]).sum();
                for delta in [-0.3, -1e-3, 1e-3, 0.7] {
                    let rise = f(cj + delta) - f(cj);
                    assert!(rise > 0.0);
                    assert!(
                        (rise - wsum * delta * delta).abs() <= 1e-9 * (1.0 + f(cj)),
                        "{rise}"
                    );
                }
            }
        }
    }
}

/// The weighted SSE and IL the CLI reports for masked runs (several methods, unsplit and
/// with strata) equal the recomputation from its labels and the raw values.
#[test]
fn reported_weighted_masked_sse_equals_the_recomputation_from_the_labels() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Lcg(77);
    for case in 0..4 {
        let (n, d) = (18 + 3 * case, 3);
        let raw = holes_instance(&mut rng, n, d, 5 + 2 * case);
        let w: Vec<f64> = (0..n)
            .map(|_| (10f64.powf(rng.next() * 2.0) * 100.0).round() / 100.0)
            .collect();
        let text = holes_csv(&raw, d, &w, true);
        let f = write(dir.path(), &format!("c{case}.csv"), &text);
        let z = z_of(&raw, n, d);
        for method in ["mdav", "mdav-generic", "cbfs"] {
            for strata in [false, true] {
                let l = dir.path().join("l.txt");
                let mut args = holes_run(f.to_str().unwrap(), "3", method, l.to_str().unwrap());
                if strata {
                    args.extend(["--strata", "g"]);
                }
                let rec = json(&cli_ok(&args));
                let labels = microagg::labels::read_labels(&l).unwrap();
                if strata {
                    for g in common::groups(&labels) {
                        assert!(g.iter().all(|&i| i % 2 == g[0] % 2), "strata mixed: {g:?}");
                    }
                }
                let sse = weighted_sse_by_means(&z, &w, d, &labels);
                let all = vec![0; n];
                let sst = weighted_sse_by_means(&z, &w, d, &all);
                let got = rec["weights"]["sse"].as_f64().unwrap();
                assert!(
                    (got - sse).abs() <= 1e-10 * sse,
                    "{method} {strata}: {got} vs {sse}"
                );
                let gst = rec["weights"]["sst"].as_f64().unwrap();
                assert!((gst - sst).abs() <= 1e-10 * sst, "{gst} vs {sst}");
                let il = rec["weights"]["il"].as_f64().unwrap();
                assert!((il - 100.0 * sse / sst).abs() <= 1e-9, "{il}");
                assert_eq!(rec["weights"]["objective"], "unweighted");
                assert_eq!(rec["missing"]["policy"], "ignore");
            }
        }
    }
}

/// P40 W8: on random partitions of instances with holes and weights 10^U(-1, 2), every
/// shift and swap delta of the weighted masked sums equals the change of the weighted
/// masked SSE recomputed from the group means.
#[test]
fn weighted_masked_deltas_against_recomputation() {
    use microagg::objective::masked_weighted::MaskedWeightedSums;
    use microagg::partition::Partition;
    let mut rng = Lcg(808);
    let mut checked = 0;
    for case in 0..20 {
        let (n, d, g) = (9 + case % 4, 2 + case % 3, 3);
        let raw = holes_instance(&mut rng, n, d, 2 + case % 5);
        let w: Vec<f64> = (0..n).map(|_| 10f64.powf(rng.next() * 3.0 - 1.0)).collect();
        let (inst, z) = (instance_of(&raw, d, &w), z_of(&raw, n, d));
        let labels: Vec<usize> = (0..n).map(|i| (i * 7 + case) % g).collect();
        let p = Partition::from_labels(&inst, labels.clone()).unwrap();
        let sums = MaskedWeightedSums::new(&inst, &p, &w);
        let before = weighted_sse_by_means(&z, &w, d, &labels);
        let change = |after: &[usize]| weighted_sse_by_means(&z, &w, d, after) - before;
        let tol = 1e-9 * before.max(1.0);
        for i in 0..n {
            for to in (0..g).filter(|&h| h != labels[i]) {
                let mut after = labels.clone();
                after[i] = to;
                let (got, want) = (sums.shift_delta(&inst, &p, i, to), change(&after));
                assert!(
                    (got - want).abs() <= tol,
                    "case {case} shift {i}->{to}: {got} vs {want}"
                );
                checked += 1;
            }
            for j in (0..n).filter(|&j| labels[j] != labels[i]) {
                let mut after = labels.clone();
                after.swap(i, j);
                let (got, want) = (sums.swap_delta(&inst, &p, i, j), change(&after));
                assert!(
                    (got - want).abs() <= tol,
                    "case {case} swap {i},{j}: {got} vs {want}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1500, "{checked} deltas checked");
}

/// `mdav+descent` with unequal weights and holes minimises the weighted masked SSE: with
/// every other record a neighbour it never raises it, ends at a local optimum of the full
/// shift and swap neighbourhood (every move checked by recomputation), keeps groups of at
/// least k, and the record calls the objective weighted. `cycles = true` is refused.
#[test]
fn a_descent_on_weights_and_holes_reaches_a_weighted_local_optimum() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Lcg(909);
    for case in 0..6 {
        let (n, d, k) = (12 + 2 * case, 3, 2 + case % 2);
        let raw = holes_instance(&mut rng, n, d, 4 + case);
        let w: Vec<f64> = (0..n)
            .map(|_| (10f64.powf(rng.next() * 2.0) * 100.0).round() / 100.0)
            .collect();
        let text = holes_csv(&raw, d, &w, false);
        let f = write(dir.path(), &format!("d{case}.csv"), &text);
        let (l, neighbours) = (
            dir.path().join("l.txt"),
            format!("descent.neighbours={}", n - 1),
        );
        let k_text = k.to_string();
        let run = |method: &str, extra: &[&str]| {
            let mut args = holes_run(f.to_str().unwrap(), &k_text, method, l.to_str().unwrap());
            args.extend(extra);
            json(&cli_ok(&args))
        };
        let start = run("mdav", &[])["weights"]["sse"].as_f64().unwrap();
        let rec = run("mdav+descent", &["--param", &neighbours]);
        assert_eq!(rec["weights"]["objective"], "weighted");
        let labels = microagg::labels::read_labels(&l).unwrap();
        let z = z_of(&raw, n, d);
        let sse = weighted_sse_by_means(&z, &w, d, &labels);
        let got = rec["weights"]["sse"].as_f64().unwrap();
        assert!(
            (got - sse).abs() <= 1e-10 * sse,
            "case {case}: {got} vs {sse}"
        );
        assert!(
            sse <= start * (1.0 + 1e-12),
            "case {case}: {sse} above the start {start}"
        );
        let groups = common::groups(&labels);
        assert!(
            groups.iter().all(|g| g.len() >= k),
            "case {case}: {groups:?}"
        );
        let size = |c: usize| labels.iter().filter(|&&x| x == c).count();
        let tol = 1e-9 * weighted_sse_by_means(&z, &w, d, &vec![0; n]);
        let worse_or_equal = |after: &[usize]| weighted_sse_by_means(&z, &w, d, after) >= sse - tol;
        for i in 0..n {
            for to in (0..groups.len()).filter(|&h| h != labels[i] && size(labels[i]) > k) {
                let mut after = labels.clone();
                after[i] = to;
                assert!(
                    worse_or_equal(&after),
                    "case {case}: shift {i}->{to} improves"
                );
            }
            for j in (0..n).filter(|&j| labels[j] != labels[i]) {
                let mut after = labels.clone();
                after.swap(i, j);
                assert!(worse_or_equal(&after), "case {case}: swap {i},{j} improves");
            }
        }
    }
    let f = write(dir.path(), "h.csv", HAND);
    let out = cli(&hand_run(
        f.to_str().unwrap(),
        "mdav+descent",
        &["--param", "descent.cycles=true"],
    ));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("3-cycle has no masked delta"));
}

/// Equal weights make the weighted masked SSE a constant times the masked SSE: the masked
/// descent runs, and the weighted IL is the IL.
#[test]
fn a_descent_on_equal_weights_and_holes_is_the_masked_descent() {
    let dir = tempfile::tempdir().unwrap();
    // Equal weights make the two objectives one: the masked descent runs and minimises the
    // weighted masked SSE (a constant times the masked SSE).
    let eq = write(
        dir.path(),
        "eq.csv",
        &HAND.replace(",1\n", ",2\n").replace(",3\n", ",2\n"),
    );
    let rec = cli_json(&hand_run(eq.to_str().unwrap(), "mdav+descent", &["--json"]));
    assert_eq!(rec["weights"]["objective"], "weighted");
    let (il, wil) = (
        rec["il"].as_f64().unwrap(),
        rec["weights"]["il"].as_f64().unwrap(),
    );
    assert!((il - wil).abs() <= 1e-12 * il, "{il} vs {wil}");
}
