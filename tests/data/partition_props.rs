//! Property tests of the incremental Partition: random sequences of shifts and swaps keep
//! the cached SSE equal to a fresh two-pass computation (relative 1e-9), and keep labels,
//! member lists and sizes consistent; every delta equals the change it predicts.

use crate::common;
use microagg::partition::Partition;
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    Shift(usize, usize),
    Swap(usize, usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Op::Shift(a, b)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Op::Swap(a, b)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_moves_keep_cached_sse_exact(
        n in 2usize..60,
        d in 1usize..6,
        g in 1usize..8,
        seed in 0u64..1000,
        ops in prop::collection::vec(op(), 1..300),
    ) {
        let inst = common::synthetic(&format!("gauss:n={n},d={d},clusters=3,seed={seed}"));
        let labels: Vec<usize> = (0..n).map(|i| (i * 7 + seed as usize) % g).collect();
        let mut p = Partition::from_labels(&inst, labels).unwrap();
        // Never refresh automatically here: the test is about the incremental updates.
        p.set_refresh_interval(usize::MAX);
        for op in ops {
            let before = p.fresh_sse(&inst);
            let predicted = match op {
                Op::Shift(i, to) => {
                    let (i, to) = (i % n, to % p.slots());
                    let delta = p.shift_delta(&inst, i, to);
                    p.apply_shift(&inst, i, to);
                    delta
                }
                Op::Swap(i, j) => {
                    let (i, j) = (i % n, j % n);
                    let delta = p.swap_delta(&inst, i, j);
                    p.apply_swap(&inst, i, j);
                    delta
                }
            };
            let after = p.fresh_sse(&inst);
            // Relative to the SSEs involved, floored at an average record's squared norm.
            let scale = after.abs().max(before.abs()).max(inst.sst / n as f64);
            prop_assert!(((after - before) - predicted).abs() <= 1e-9 * scale,
                "delta {predicted} but SSE moved by {}", after - before);
            prop_assert!(p.validate(&inst, 1e-9).is_ok(), "{:?}", p.validate(&inst, 1e-9));
        }
        let sizes: usize = (0..p.slots()).map(|g| p.size(g)).sum();
        prop_assert_eq!(sizes, n);
        for i in 0..n {
            prop_assert!(p.members(p.group_of(i)).contains(&i));
        }
    }
}

#[test]
fn long_move_sequence_with_automatic_refresh_stays_exact() {
    let inst = common::synthetic("gauss:n=500,d=8,clusters=5,seed=3");
    let labels: Vec<usize> = (0..500).map(|i| i % 50).collect();
    let mut p = Partition::from_labels(&inst, labels).unwrap();
    let mut next = common::xorshift64(12345);
    for _ in 0..200_000 {
        let i = (next() % 500) as usize;
        if next().is_multiple_of(2) {
            let j = (next() % 500) as usize;
            p.apply_swap(&inst, i, j);
        } else {
            let to = (next() % 50) as usize;
            p.apply_shift(&inst, i, to);
        }
    }
    p.validate(&inst, 1e-9).unwrap();
}

#[test]
fn compact_gives_canonical_labels_and_keeps_sse() {
    let inst = common::synthetic("uniform:n=12,d=2,seed=1");
    let p = Partition::from_labels(&inst, vec![5, 5, 2, 2, 9, 9, 5, 2, 9, 0, 0, 0]).unwrap();
    let mut q = p.clone();
    q.compact(&inst);
    assert_eq!(q.labels(), &[0, 0, 1, 1, 2, 2, 0, 1, 2, 3, 3, 3]);
    assert_eq!(q.labels(), p.canonical_labels().as_slice());
    assert!((q.sse() - p.sse()).abs() < 1e-12);
    assert_eq!(q.num_groups(), 4);
    assert_eq!(q.slots(), 4);
}

/// P03: splitting a group of size >= 2k into k and the rest never raises SSE.
#[test]
fn splitting_a_large_group_never_raises_sse() {
    for seed in 0..200u64 {
        let k = 2 + (seed % 4) as usize;
        let m = 2 * k + (seed % 5) as usize;
        let inst = common::synthetic(&format!("gauss:n={m},d=3,clusters=2,seed={seed}"));
        let whole = Partition::from_labels(&inst, vec![0; m]).unwrap().sse();
        // Every split that puts a run of k consecutive records (in a seeded order) apart.
        for start in 0..m {
            let labels: Vec<usize> = (0..m)
                .map(|i| usize::from((i + m - start) % m < k))
                .collect();
            let split = Partition::from_labels(&inst, labels).unwrap().sse();
            assert!(
                split <= whole * (1.0 + 1e-12),
                "seed {seed}: {split} > {whole}"
            );
        }
    }
}
