//! Issue 22, weighted local search (proofs/P40 Lemma W5, `src/base/objective/weighted.rs`, run by the one descent in `src/search/local_search.rs`):
//! with unequal sampling weights `descent` minimises the weighted SSE. Its result is a
//! local optimum of the weighted SSE for every shift and swap (checked by recomputing the
//! weighted SSE of every neighbour partition with an independent pairwise formula), never
//! worse in the weighted SSE than its start, feasible; the record says `objective =
//! "weighted"`; the options it does not support are refused.

use crate::common;
use common::{cli_err, cli_json, pairwise_weighted_sse, weighted_args};
use microagg::data::{Instance, Weights};
use microagg::pipeline::Pipeline;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::AtomicBool;

/// Weighted SSE of a labelling by the pairwise identity of P40 W1(c) (no centroid), on the
/// z-scores; labels with no record are skipped.
fn pairwise_weighted_sse_of(inst: &Instance, w: &[f64], labels: &[usize]) -> f64 {
    common::members_by_label(labels)
        .iter()
        .filter(|members| !members.is_empty())
        .map(|members| pairwise_weighted_sse(&inst.z, inst.d, w, members))
        .sum()
}

fn weighted_instance(rng: &mut ChaCha8Rng, n: usize, d: usize) -> Instance {
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            (0..d)
                .map(|_| rng.random_range(-2.0..2.0) + if i % 7 == 0 { 6.0 } else { 0.0 })
                .collect()
        })
        .collect();
    let mut inst = common::from_rows(&rows);
    let w = (0..n)
        .map(|_| 10f64.powf(rng.random_range(-3.0..3.0)))
        .collect();
    inst.weights = Some(Weights::new("w", w).unwrap());
    inst
}

fn run(inst: &Instance, method: &str, params: &[&str], k: usize) -> Vec<usize> {
    let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    let never = AtomicBool::new(false);
    let out = Pipeline::parse(method, &params)
        .unwrap()
        .run(inst, k, 0, None, &never)
        .unwrap();
    assert!(out.partition.is_feasible(k), "{method}");
    out.partition.labels().to_vec()
}

/// With every other record as a neighbour the granular neighbourhood is the full one, so
/// the result must admit no improving shift (from a group of more than k) and no
/// improving swap, by recomputation; and it is never worse than MDAV's start.
#[test]
fn weighted_descent_ends_at_a_local_optimum_of_the_weighted_sse() {
    let mut rng = ChaCha8Rng::seed_from_u64(4005);
    let (mut differs, mut better_than_unweighted, cases) = (0, 0, 12);
    for case in 0..cases {
        let (n, d, k) = (
            rng.random_range(20..40),
            rng.random_range(1..4),
            rng.random_range(2..4),
        );
        let inst = weighted_instance(&mut rng, n, d);
        let w = inst.weights.as_ref().unwrap().values.clone();
        let nb = format!("descent.neighbours={}", n - 1);
        let start = run(&inst, "mdav", &[], k);
        let for_each = ["first", "best"];
        let strategy = for_each[case % 2];
        let st = format!("descent.strategy={strategy}");
        let labels = run(&inst, "mdav+descent", &[&nb, &st], k);
        let here = pairwise_weighted_sse_of(&inst, &w, &labels);
        let start_sse = pairwise_weighted_sse_of(&inst, &w, &start);
        assert!(
            here <= start_sse * (1.0 + 1e-12),
            "case {case}: {here} > start {start_sse}"
        );
        let tol = 1e-9 * here.max(1e-300);
        let groups = labels.iter().max().unwrap() + 1;
        let size = |l: &[usize], g: usize| l.iter().filter(|&&x| x == g).count();
        for i in 0..n {
            for h in (0..groups).filter(|&h| h != labels[i]) {
                if size(&labels, labels[i]) > k {
                    let mut l = labels.clone();
                    l[i] = h;
                    let v = pairwise_weighted_sse_of(&inst, &w, &l);
                    assert!(
                        v >= here - tol,
                        "case {case}: shift {i} -> {h} improves {here} to {v}"
                    );
                }
                for j in (0..n).filter(|&j| labels[j] == h) {
                    let mut l = labels.clone();
                    l.swap(i, j);
                    let v = pairwise_weighted_sse_of(&inst, &w, &l);
                    assert!(
                        v >= here - tol,
                        "case {case}: swap {i} {j} improves {here} to {v}"
                    );
                }
            }
        }
        // The unweighted descent (same instance without weights) for comparison.
        let mut plain = inst.clone();
        plain.weights = None;
        let unweighted = run(&plain, "mdav+descent", &[&nb, &st], k);
        if unweighted != labels {
            differs += 1;
        }
        if here < pairwise_weighted_sse_of(&inst, &w, &unweighted) * (1.0 - 1e-12) {
            better_than_unweighted += 1;
        }
    }
    eprintln!("{cases} cases: weighted descent differs from the unweighted in {differs}, lower weighted SSE in {better_than_unweighted}");
    assert!(differs * 2 >= cases && better_than_unweighted * 2 >= cases);
}

/// Through the CLI: the record says the weighted SSE was minimised, `check --weights`
/// recomputes the same weighted SSE from the labels, the weighted IL is at most MDAV's;
/// `descent.cycles=true` is refused with weights.
#[test]
fn cli_weighted_descent_record_and_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut text = "a,b,w\n".to_string();
    for _ in 0..60 {
        text += &format!(
            "{},{},{}\n",
            rng.random_range(-5.0..5.0),
            rng.random_range(-5.0..5.0),
            10f64.powf(rng.random_range(-2.0..2.0))
        );
    }
    let data = dir.path().join("d.csv");
    std::fs::write(&data, text).unwrap();
    let d = data.to_str().unwrap();
    let labels = dir.path().join("l.txt");
    let l = labels.to_str().unwrap();
    let r = cli_json(&weighted_args(
        "run",
        d,
        "3",
        &["--method", "mdav+descent", "--labels-out", l, "--json"],
    ));
    assert_eq!(r["weights"]["objective"], "weighted");
    let m = cli_json(&weighted_args(
        "run",
        d,
        "3",
        &["--method", "mdav", "--json"],
    ));
    assert_eq!(m["weights"]["objective"], "unweighted");
    let (wd, wm) = (
        r["weights"]["il"].as_f64().unwrap(),
        m["weights"]["il"].as_f64().unwrap(),
    );
    assert!(wd < wm, "weighted descent {wd} vs mdav {wm}");
    let c = cli_json(&weighted_args("check", d, "3", &["--labels", l, "--json"]));
    let (a, b) = (
        c["weights"]["sse"].as_f64().unwrap(),
        r["weights"]["sse"].as_f64().unwrap(),
    );
    assert!((a - b).abs() <= 1e-12 * a, "{a} vs {b}");
    // ILS after the descent minimises the unweighted SSE again: the record says so.
    let i = cli_json(&weighted_args(
        "run",
        d,
        "3",
        &[
            "--method",
            "mdav+descent+ils",
            "--max-steps",
            "20",
            "--json",
        ],
    ));
    assert_eq!(i["weights"]["objective"], "unweighted");
    let e = cli_err(&weighted_args(
        "run",
        d,
        "3",
        &["--method", "mdav+descent", "--param", "descent.cycles=true"],
    ));
    assert!(e.contains("descent.cycles=true with --weights"), "{e}");
}
