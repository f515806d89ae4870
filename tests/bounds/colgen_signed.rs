//! The signed exact-total anchored bound (`colgen::signed_anchors`) and the per-record
//! shares of the reduced costs (`colgen::record_share`) against brute force (proofs/P20
//! "Signed values", "Positive shares"): on small adversarial instances (uniform, duplicates,
//! integer ties, scales 1e-9..1e9, two far clusters, outliers) with duals from far below to
//! far above the LP optimum, every per-anchor value lies below the least reduced cost of the
//! groups with that medoid and size, every per-record value below the least share
//! `rc(S)/|S|` of the groups holding that record, and every bound below the optimum; the
//! signed bound is never below the capped knapsack from the same values and beats it where
//! the duals are low.

use crate::common;
use common::{adversarial_family, brute_force_optimum};
use microagg_solvers::bounds::colgen::anchors::anchored_sizes_lagrangian;
use microagg_solvers::bounds::colgen::cuts::CutDuals;
use microagg_solvers::bounds::colgen::pricing::{
    anchor_sizes, weak_rc_bound, Anchors, ExactBudget, ExactSearch, Geometry,
};
use microagg_solvers::bounds::colgen::record_share::{record_share_bounds, ShareForm};
use microagg_solvers::bounds::colgen::signed_anchors::signed_sizes_lagrangian;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn budget() -> ExactBudget<'static> {
    common::exact_budget(0, 60)
}

#[test]
fn signed_bound_and_record_shares_stay_below_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(20_181_010);
    let (mut cases, mut signed_gains, mut positive_records) = (0, 0, 0);
    for case in 0..48 {
        let k = 2 + case % 2;
        let n = if k == 2 { 7 + case % 3 } else { 9 + case % 3 };
        let d = 1 + case % 3;
        let x = adversarial_family(&mut rng, case, n, d);
        let geo = Geometry::new(&x, n, d, k, n - 1);
        let opt = brute_force_optimum(&x, n, d, k);
        let scale = opt.abs().max(geo.max_dist) + 1e-300;
        // Duals from the nn duals (dual feasible) scaled from far below to far above.
        let lift = [0.2, 0.6, 1.0, 1.6, 3.0][case % 5];
        let y: Vec<f64> = (0..n)
            .map(|i| lift * geo.nn(i, k - 1) / (2 * k) as f64 * rng.random_range(0.8..1.25))
            .collect();
        let groups = common::all_groups_with_medoids(&x, n, d, k, &y);
        let min_rc = groups.iter().map(|g| g.0).fold(f64::INFINITY, f64::min);
        let floor_rc = weak_rc_bound(&geo, &y);
        let tol = 1e-9 * scale;
        assert!(
            floor_rc <= min_rc + tol,
            "case {case}: weak {floor_rc} > {min_rc}"
        );

        // Per-record shares: below the least share of every group holding the record.
        for form in [ShareForm::Star, ShareForm::Pairwise] {
            let l = record_share_bounds(&geo, &y, form);
            for (i, &li) in l.iter().enumerate() {
                let least = groups
                    .iter()
                    .filter(|g| g.1.contains(&i))
                    .map(|g| g.0 / g.1.len() as f64)
                    .fold(f64::INFINITY, f64::min);
                assert!(
                    li <= least + tol,
                    "case {case} {form:?} record {i}: {li} > {least}"
                );
                positive_records += usize::from(li > 0.0);
            }
        }
        let star = record_share_bounds(&geo, &y, ShareForm::Star);
        let pair = record_share_bounds(&geo, &y, ShareForm::Pairwise);
        for (s, p) in star.iter().zip(&pair) {
            assert!(p + tol >= *s, "case {case}: pairwise {p} below star {s}");
        }

        // Signed per-anchor values at thresholds around and above 0.
        let w = anchor_sizes(&geo);
        let typical = y.iter().map(|v| v.abs()).sum::<f64>() / n as f64;
        for tau in [0.0, 0.5 * typical, 4.0 * typical, f64::INFINITY] {
            let mut per_size = Vec::new();
            let out = ExactSearch::new(&CutDuals::none())
                .anchors(Anchors::Signed { threshold: tau })
                .run(&geo, &y, budget(), &mut per_size);
            assert!(out.exact, "case {case}: search cut");
            for r in 0..n {
                for m in k..=(2 * k - 1).min(n) {
                    let v = per_size[r * w + (m - k)];
                    let least = groups
                        .iter()
                        .filter(|g| g.1.len() == m && g.2.contains(&r))
                        .map(|g| g.0)
                        .fold(tau, f64::min);
                    assert!(
                        v <= least + tol,
                        "case {case} tau {tau} r {r} m {m}: {v} > {least}"
                    );
                }
            }
            let signed = signed_sizes_lagrangian(&geo, &y, d, &per_size, floor_rc);
            let capped =
                anchored_sizes_lagrangian(&geo, &y, d, &CutDuals::none(), &per_size, floor_rc);
            assert!(
                signed <= opt,
                "case {case} tau {tau}: signed {signed} > optimum {opt}"
            );
            assert!(
                capped <= opt,
                "case {case} tau {tau}: capped {capped} > optimum {opt}"
            );
            assert!(
                signed + tol >= capped,
                "case {case} tau {tau}: {signed} < capped {capped}"
            );
            signed_gains += usize::from(signed > capped + tol);
        }
        cases += 1;
    }
    assert_eq!(cases, 48);
    // Sharp: low duals leave positive reduced costs, which the signed bound counts.
    assert!(
        signed_gains >= 10,
        "signed bound above the capped one in {signed_gains} runs"
    );
    assert!(
        positive_records >= 10,
        "positive record shares: {positive_records}"
    );
}
