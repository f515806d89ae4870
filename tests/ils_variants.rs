//! The ILS variants of the issue-7 parameter study (`ils.carves`, `ils.strategy`, short
//! `ils.stall`): every combination returns a feasible partition, never worse than its input
//! (MDAV + decompose-shrink), whose cached SSE equals a fresh recomputation, identical for
//! the same seed; bad values are rejected before the run starts.

mod common;
use microagg::pipeline::Pipeline;
use std::sync::atomic::AtomicBool;

#[test]
fn ils_variants_are_feasible_never_worse_and_reproducible() {
    let inst = common::synthetic("gauss:n=400,d=4,clusters=8,seed=11");
    let never = AtomicBool::new(false);
    for k in [3, 5] {
        let (input_sse, _) = common::run_method(&inst, "mdav+decompose-shrink", k, 0);
        for carves in [1, 4] {
            for strategy in ["first", "best"] {
                let params: Vec<String> = vec![
                    "ils.stall=400".into(),
                    format!("ils.carves={carves}"),
                    format!("ils.strategy={strategy}"),
                ];
                let pipe = Pipeline::parse("mdav+decompose-shrink+ils", &params).unwrap();
                let a = pipe.run(&inst, k, 3, None, &never).unwrap().partition;
                let b = pipe.run(&inst, k, 3, None, &never).unwrap().partition;
                let tag = format!("k={k} carves={carves} strategy={strategy}");
                assert!(a.is_feasible(k), "{tag}: infeasible");
                assert!(
                    a.sse() <= input_sse * (1.0 + 1e-12),
                    "{tag}: worse than input"
                );
                assert!(
                    a.sse() < input_sse,
                    "{tag}: no improvement on this instance"
                );
                let fresh = a.fresh_sse(&inst);
                assert!((a.sse() - fresh).abs() <= 1e-9 * fresh, "{tag}: cached SSE");
                assert_eq!(a.labels(), b.labels(), "{tag}: not reproducible");
            }
        }
    }
}

#[test]
fn bad_ils_parameters_are_rejected() {
    for bad in ["ils.carves=0", "ils.strategy=random", "ils.stall=0"] {
        let err = Pipeline::parse("mdav+ils", &[bad.to_string()]);
        assert!(err.is_err(), "{bad} accepted");
    }
}
