//! Fuzz-style properties of every parser of user input (issue 23): CSV files, labels files,
//! suite TOML, generator specs and `--param` values. Each gets arbitrary and near-valid
//! input and must give a clear error or a correct result, never a panic (proptest reports a
//! panic as a failure) and never a non-finite value in what it accepts.

use crate::common;
use microagg::data::{csv_file, synthetic, ColumnSelection};
use microagg::experiment::Suite;
use microagg::labels::parse_labels;
use microagg::pipeline::Pipeline;
use proptest::prelude::*;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// A finite double from anywhere in the range, including the extremes.
fn any_finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        -1e3..1e3f64,
        any::<f64>().prop_filter("finite", |v| v.is_finite()),
        Just(f64::MAX),
        Just(-f64::MAX),
        Just(f64::MIN_POSITIVE),
        Just(5e-324),
        Just(0.0),
    ]
}

/// Checks an accepted instance: shape, finite z-scores with mean 0 and variance 1 per
/// column, SST = n d.
fn assert_sane(inst: &microagg::data::Instance) {
    assert!(inst.n >= 2 && inst.d >= 1);
    assert_eq!(inst.z.len(), inst.n * inst.d);
    assert!(inst.z.iter().all(|v| v.is_finite()));
    let nd = (inst.n * inst.d) as f64;
    assert!(
        (inst.sst - nd).abs() <= 1e-9 * nd,
        "SST {} for n d = {nd}",
        inst.sst
    );
    for j in 0..inst.d {
        let n = inst.n as f64;
        let mean = (0..inst.n).map(|i| inst.z[i * inst.d + j]).sum::<f64>() / n;
        assert!(mean.abs() < 1e-9, "column {j}: mean {mean}");
    }
}

/// A data error must name the file.
fn assert_clear(e: &microagg::Error, file: &str) {
    let s = e.to_string();
    assert!(!s.is_empty());
    if let microagg::Error::Data { file: f, .. } = e {
        assert_eq!(f, file);
    }
}

proptest! {
    // A fixed seed: the same cases on every run (CI repeats what was checked here).
    #![proptest_config(ProptestConfig {
        cases: 256,
        rng_seed: proptest::test_runner::RngSeed::Fixed(23),
        ..ProptestConfig::default()
    })]

    #[test]
    fn csv_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        match csv_file::parse_csv(&bytes, "f.csv", "f", &ColumnSelection::All) {
            Ok(inst) => assert_sane(&inst),
            Err(e) => assert_clear(&e, "f.csv"),
        }
    }

    #[test]
    fn csv_near_valid_text_never_panics(
        cells in proptest::collection::vec(
            prop_oneof![
                Just("1".to_string()), Just("-2.5".to_string()), Just("".to_string()),
                Just("NaN".to_string()), Just("inf".to_string()), Just("1e400".to_string()),
                Just("\"3\"".to_string()), Just(" 4 ".to_string()), Just("x".to_string()),
                Just("1;2".to_string()), Just("\u{feff}5".to_string()),
                Just("1e-320".to_string()), Just("1.7e308".to_string()),
            ],
            0..24,
        ),
        width in 1usize..4,
        crlf in any::<bool>(),
        select in prop_oneof![Just(""), Just("1"), Just("a,b"), Just("2,2"), Just("c"), Just("0")],
    ) {
        let nl = if crlf { "\r\n" } else { "\n" };
        let mut text = ["a", "b", "c"][..width].join(",") + nl;
        for row in cells.chunks(width) {
            text += &row.join(",");
            text += nl;
        }
        match csv_file::parse_csv(text.as_bytes(), "f.csv", "f", &ColumnSelection::parse(select)) {
            Ok(inst) => assert_sane(&inst),
            Err(e) => assert_clear(&e, "f.csv"),
        }
    }

    #[test]
    fn csv_of_any_finite_matrix_loads_exactly(
        n in 2usize..12,
        d in 1usize..4,
        values in proptest::collection::vec(any_finite(), 48),
        quote in any::<bool>(),
    ) {
        let raw: Vec<f64> = (0..n * d).map(|t| values[t % values.len()]).collect();
        let header: Vec<String> = (1..=d).map(|j| format!("x{j}")).collect();
        let mut text = header.join(",") + "\n";
        for i in 0..n {
            let row: Vec<String> = (0..d)
                .map(|j| {
                    let v = format!("{:e}", raw[i * d + j]);
                    if quote { format!("\"{v}\"") } else { v }
                })
                .collect();
            text += &(row.join(",") + "\n");
        }
        match csv_file::parse_csv(text.as_bytes(), "m.csv", "m", &ColumnSelection::All) {
            Ok(inst) => {
                assert_sane(&inst);
                prop_assert_eq!(&inst.raw, &raw);
            }
            Err(e) => {
                // Refused only for a column without two different values.
                let s = e.to_string();
                prop_assert!(s.contains("constant column") || s.contains("double precision"), "{}", s);
                let some_constant = (0..d).any(|j| {
                    let c: Vec<f64> = (0..n).map(|i| raw[i * d + j]).collect();
                    c.iter().all(|&v| v == c[0])
                        || {
                            // differences below what survives scaling to the largest value
                            let m = c.iter().fold(0.0f64, |a, v| a.max(v.abs()));
                            c.iter().all(|&v| (v - c[0]).abs() <= m * 1e-300)
                        }
                });
                prop_assert!(some_constant, "refused a column with two values: {}", s);
            }
        }
    }

    #[test]
    fn labels_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..100)) {
        if let Err(e) = parse_labels(&bytes, "l.txt") {
            assert_clear(&e, "l.txt");
        }
    }

    #[test]
    fn labels_round_trip(labels in proptest::collection::vec(0usize..1_000_000, 0..50), crlf in any::<bool>()) {
        let nl = if crlf { "\r\n" } else { "\n" };
        let text: String = labels.iter().map(|l| format!("{l}{nl}")).collect();
        prop_assert_eq!(parse_labels(text.as_bytes(), "l.txt").unwrap(), labels);
    }

    #[test]
    fn generator_specs_never_panic(
        kind in prop_oneof![Just("uniform"), Just("gauss"), Just("sim1"), Just("sim2"), Just("sim3"), Just("other")],
        keys in proptest::collection::vec(
            (prop_oneof![
                Just("n"), Just("d"), Just("seed"), Just("lo"), Just("hi"), Just("clusters"),
                Just("sigma_lo"), Just("sigma_hi"), Just("span"), Just("zz"),
            ],
            prop_oneof![
                Just("0"), Just("1"), Just("3"), Just("40"), Just("-1"), Just("1e308"),
                Just("inf"), Just("NaN"), Just("18446744073709551615"), Just("1000000000000"),
                Just("0.5"), Just(""), Just("x"),
            ]),
            0..5,
        ),
    ) {
        let args: Vec<String> = keys.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let spec = if args.is_empty() { kind.to_string() } else { format!("{kind}:{}", args.join(",")) };
        match synthetic::try_generate(&spec) {
            Ok(Some(inst)) => {
                prop_assert!(inst.n * inst.d <= synthetic::MAX_VALUES);
                assert_sane(&inst);
            }
            Ok(None) => prop_assert_eq!(kind, "other"),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn suite_text_never_panics(text in "[a-z_=\\[\\]{}\"., 0-9\n+-]{0,120}") {
        let _ = Suite::parse(&text, Path::new("s.toml"));
    }

    #[test]
    fn near_valid_suites_give_errors_or_valid_plans(
        k in proptest::collection::vec(prop_oneof![Just(0usize), Just(1), Just(2), Just(3), Just(1000)], 0..3),
        time_limit in prop_oneof![Just("".to_string()), Just("time_limit = 1e19".into()),
            Just("time_limit = -1.0".into()), Just("time_limit = nan".into()), Just("time_limit = 0.5".into()),
            Just("time_limit = inf".into())],
        max_steps in prop_oneof![Just("".to_string()), Just("max_steps = 0".into()), Just("max_steps = 5".into()),
            Just("max_steps = -3".into())],
        method in prop_oneof![Just("mdav"), Just("mdav+ils"), Just("ils"), Just("mdv"), Just("mdav++ils"), Just("")],
        param in prop_oneof![Just(""), Just("params = { ils = { stall = 0 } }"),
            Just("params = { ils = { merge_time = 1e300 } }"), Just("params = { mdav = { x = 1 } }"),
            Just("params = { ils = { neighbours = 0 } }")],
        replicates in prop_oneof![Just(0usize), Just(1), Just(2)],
        instance in prop_oneof![Just("uniform:n=30,d=2,seed=1"), Just("uniform:n=1,d=1"), Just("nope.csv"),
            Just("uniform:n=100000000000,d=9")],
    ) {
        let text = format!(
            "instances = [\"{instance}\"]\nk = {k:?}\n{time_limit}\n{max_steps}\nseeds = {{ base = 1, replicates = {replicates} }}\n[[pipeline]]\nmethod = \"{method}\"\n{param}\n"
        );
        if let Ok(suite) = Suite::parse(&text, Path::new("s.toml")) {
            prop_assert!(suite.time_limit.is_none_or(|t| t > 0.0 && t <= 1e9));
            if let Ok(plan) = microagg::experiment::Plan::new(suite) {
                prop_assert!(!plan.runs.is_empty());
            }
        }
    }

    #[test]
    fn param_values_give_errors_or_runs_that_finish(
        stage in 0usize..44,
        key_pick in 0usize..32,
        value in prop_oneof![
            Just("0"), Just("1"), Just("-1"), Just("2"), Just("0.5"), Just("1e19"), Just("1e308"),
            Just("-1e308"), Just("NaN"), Just("inf"), Just("true"), Just("\"x\""), Just("[]"),
            Just("18446744073709551615"), Just("4294967296"), Just("best"), Just(""),
        ],
    ) {
        let all = microagg::registry::registry();
        let m = &all[stage % all.len()];
        let keys: Vec<String> = m.defaults.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
        let key = if keys.is_empty() { "nothing".to_string() } else { keys[key_pick % keys.len()].clone() };
        let spec = match m.kind() {
            microagg::method::MethodKind::Initializer => m.name.to_string(),
            microagg::method::MethodKind::Refiner => format!("mdav+{}", m.name),
        };
        let arg = format!("{}.{key}={value}", m.name);
        if let Ok(p) = Pipeline::parse(&spec, std::slice::from_ref(&arg)) {
            // Initializers do not poll budgets (a huge iteration count is slow, not wrong),
            // so only refiner parameters are run here, under a step budget.
            if m.one_attribute || m.kind() == microagg::method::MethodKind::Initializer {
                return Ok(());
            }
            // Accepted parameters must give a feasible run on a small instance within a
            // step budget (or a clear error, e.g. a solver that refuses the value).
            let inst = common::synthetic("gauss:n=40,d=2,clusters=4,seed=3");
            let never = AtomicBool::new(false);
            match p.run_with(&inst, 3, 0, Some(5.0), Some(30), &never) {
                Ok(out) => {
                    prop_assert!(out.partition.is_feasible(3), "{arg}");
                    prop_assert!(out.partition.sse().is_finite(), "{arg}");
                }
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }
    }
}
