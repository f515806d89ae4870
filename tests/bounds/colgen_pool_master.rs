//! The pool's restricted master (solvers/src/bounds/colgen/pool_master.rs), its centre fixed
//! (cases 0, 1 mod 4) or moving (2, 3 mod 4), against brute force on small instances (three
//! clusters, duplicates, scales 1e-6..1e6): its certified value is never below the start's and
//! never above the optimum, the verifier recomputes at least that value from the duals, and
//! its last master value lies above the LP relaxation (the restricted master over every group;
//! at scales where HiGHS' tolerances allow).

use crate::common;
use common::{all_lp_columns, brute_force_optimum, clustered_rows, consecutive_groups};
use microagg_solvers::bounds::colgen::master_upper::restricted_master_value;
use microagg_solvers::bounds::colgen::pool_master::{pool_master_push, PoolMasterSettings};
use microagg_solvers::bounds::colgen::pricing::Geometry;
use microagg_solvers::bounds::colgen::subgrad::{certify_check, GroupPool};
use microagg_solvers::bounds::colgen::verify::verify_lagrangian_anchored;
use microagg_solvers::bounds::colgen::Quiet;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// Rows of one of three families, scaled by 1e-6, 1 or 1e6.
fn rows(rng: &mut ChaCha8Rng, case: usize, n: usize, d: usize) -> Vec<f64> {
    let scale = [1e-6, 1.0, 1e6][case % 3];
    let x: Vec<f64> = match (case / 3) % 3 {
        0 => clustered_rows(rng, n, d, 3.0),
        // Duplicates: every row one of three.
        1 => common::duplicated_rows(rng, n, d),
        // Tight clusters and one far outlier.
        _ => {
            let mut x = clustered_rows(rng, n, d, 50.0);
            x[0] += 1e3;
            x
        }
    };
    x.into_iter().map(|v| v * scale).collect()
}

#[test]
fn pool_master_push_stays_between_its_start_and_the_optimum_and_verifies() {
    let mut rng = ChaCha8Rng::seed_from_u64(18_4702);
    let (mut raised, mut at_lp) = (0, 0);
    for case in 0..27 {
        let n = rng.random_range(7..=11);
        let d = rng.random_range(1..=3);
        let k = 2 + case % 2;
        let x = rows(&mut rng, case, n, d);
        let geo = Geometry::new(&x, n, d, k, 6);
        // The consecutive partition (blocks of k, the last taking the rest) seeds the master.
        let groups = consecutive_groups(n, k);
        // Start: the nn duals (dual feasible, proofs/P09 Part C), certified.
        let y0: Vec<f64> = (0..n).map(|i| geo.nn(i, k - 1) / (2 * k) as f64).collect();
        let mut pool = GroupPool::seeded(&geo, &groups);
        let far = Instant::now() + Duration::from_secs(60);
        let start = certify_check(&geo, &y0, d, 0.0, far, &mut pool);
        assert!(start.complete, "case {case}");
        let run = pool_master_push(
            &geo,
            &x,
            d,
            (&y0, start.value),
            &groups,
            &mut pool,
            PoolMasterSettings {
                tau: 0.0,
                max_rounds: 200,
                deadline: far.into(),
                moving_centre: case % 4 >= 2,
                ipm: case % 3 == 1,
            },
            &mut Quiet,
        )
        .unwrap();
        let lb = run.ascent.lower_bound;
        let opt = brute_force_optimum(&x, n, d, k);
        let (every, costs) = all_lp_columns(&x, n, d, k);
        let lp = restricted_master_value(n, &every, &costs, 60.0)
            .unwrap()
            .expect("solved within 60 s")
            .value;
        let tol = 1e-9 * opt.abs().max(f64::MIN_POSITIVE);
        assert!(
            lb >= start.value,
            "case {case}: {lb} below its start {}",
            start.value
        );
        assert!(
            lb <= opt,
            "case {case} (n={n}, d={d}, k={k}): {lb} above the optimum {opt}"
        );
        let v = verify_lagrangian_anchored(&x, n, d, k, &run.ascent.duals, &[], &[], None).unwrap();
        assert!(
            v.lower_bound >= lb,
            "case {case}: the verifier recomputes {} below {lb}",
            v.lower_bound
        );
        assert!(run.rounds >= 1, "case {case}: no master solve");
        // U is HiGHS' value (an estimate): at scale 1e-6 the costs lie below its absolute
        // tolerances and it says nothing, so it is compared at the other scales only.
        assert!(
            case % 3 == 0 || run.upper >= lp - 1e-7 * lp.abs(),
            "case {case}: master value {} below the LP {lp}",
            run.upper
        );
        if lb > start.value + tol {
            raised += 1;
        }
        if lb >= lp - 1e-6 * lp.abs().max(f64::MIN_POSITIVE) {
            at_lp += 1;
        }
    }
    eprintln!("raised the start at {raised} of 27 instances, reached the LP at {at_lp}");
    // The comparisons above say little if the push never moves.
    assert!(raised >= 9, "raised only {raised} of 27 starts");
}
