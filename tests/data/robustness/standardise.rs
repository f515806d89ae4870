//! Standardisation precision (issue 48, item 2): columns offset by up to 1e15 times their
//! spread are standardised as exactly as ordinary ones, against a reference computed to
//! full precision here, and `solve-exact` proves the optimum of such data.

use super::common;
use super::instance;
use rand::{Rng, SeedableRng};

/// The z-scores of one column, accurate to a few units in the last place: an offset column
/// (all values within a factor 2 of the first) is first shifted by its first value, which
/// is exact (Sterbenz's lemma), so the mean and variance are taken of numbers of the size
/// of the spread, where floating point loses nothing that matters (a column without such an
/// offset is taken as it is); the sum is compensated (Neumaier) besides.
fn reference_z(col: &[f64]) -> Vec<f64> {
    let offset = col.iter().all(|&v| v / col[0] >= 0.5 && v / col[0] <= 2.0);
    let x0 = if offset { col[0] } else { 0.0 };
    let shifted: Vec<f64> = col.iter().map(|&v| v - x0).collect();
    let (mut sum, mut comp) = (0.0f64, 0.0f64);
    for &t in &shifted {
        let s = sum + t;
        comp += if sum.abs() >= t.abs() {
            (sum - s) + t
        } else {
            (t - s) + sum
        };
        sum = s;
    }
    let n = col.len() as f64;
    let mean = (sum + comp) / n;
    let dev: Vec<f64> = shifted.iter().map(|&v| v - mean).collect();
    let sd = (dev.iter().map(|v| v * v).sum::<f64>() / n).sqrt();
    dev.iter().map(|v| v / sd).collect()
}

/// Reference z-scores of row-major `raw` (`d` columns), row-major.
fn reference(raw: &[f64], d: usize) -> Vec<f64> {
    let n = raw.len() / d;
    let mut z = vec![0.0; n * d];
    for j in 0..d {
        let col: Vec<f64> = (0..n).map(|i| raw[i * d + j]).collect();
        for (i, v) in reference_z(&col).into_iter().enumerate() {
            z[i * d + j] = v;
        }
    }
    z
}

/// (name, rows, columns, offset in units of the spread, uniform or normal values).
const OFFSET_CASES: &[(&str, usize, usize, f64, bool)] = &[
    ("uniform + 1e3", 2000, 1, 1e3, true),
    ("uniform + 1e9, d = 2", 2000, 2, 1e9, true),
    ("uniform + 1e12, n = 2e5 (issue 48)", 200_000, 1, 1e12, true),
    ("normal + 1e15, 1000 x 3 (issue 48)", 1000, 3, 1e15, false),
    ("normal + 1e15, d = 2", 500, 2, 1e15, false),
];

#[test]
fn offset_columns_are_standardised_as_the_exact_reference() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(48);
    for &(name, n, d, offset, uniform) in OFFSET_CASES {
        let raw: Vec<f64> = (0..n * d)
            .map(|_| {
                let v: f64 = if uniform {
                    rng.random_range(0.0..1.0)
                } else {
                    rand_distr::Distribution::sample(&rand_distr::StandardNormal, &mut rng)
                };
                offset + v
            })
            .collect();
        let inst = instance(&raw, d).unwrap_or_else(|e| panic!("{name}: {e}"));
        let z = reference(&raw, d);
        // A column may keep a shift below 2^-26 (the textbook mean, when its error changes
        // the variance by less than its rounding); a shift changes no SSE.
        for j in 0..d {
            let shift = (0..n).map(|i| inst.z[i * d + j]).sum::<f64>() / n as f64;
            assert!(
                shift.abs() < 2f64.powi(-26),
                "{name}: column {j} shifted by {shift:e}"
            );
            let worst = (0..n)
                .map(|i| (inst.z[i * d + j] - shift - z[i * d + j]).abs())
                .fold(0.0, f64::max);
            assert!(
                worst < 1e-12,
                "{name}: column {j}: z-scores off by {worst:e}"
            );
        }
        let sst = (n * d) as f64;
        assert!(
            (inst.sst - sst).abs() < 1e-9 * sst,
            "{name}: SST {} instead of {sst}",
            inst.sst
        );
        // The IL of a partition (MDAV's) on the exact z-scores.
        let (sse, labels) = common::run_method(&inst, "mdav", 3, 0);
        let exact_sse = microagg_solvers::sse::partition_sse(&z, d, &labels);
        assert!(
            (sse - exact_sse).abs() < 1e-9 * exact_sse,
            "{name}: SSE {sse} instead of {exact_sse}"
        );
    }
}

/// 12 rows, d = 2: a column near 1.3e17 (three values 16 apart, the spacing of doubles
/// there) and one in [0, 1). The plain-sum mean of the first column is off by more than
/// its spread, which weighed it down, and `solve-exact` proved a partition 75 % above the
/// optimum of the correctly standardised data.
const TWELVE: [[f64; 2]; 12] = [
    [1.2854388001343416e17, 0.07427986373631945],
    [1.2854388001343418e17, 0.7315481986397349],
    [1.2854388001343418e17, 0.041043586865225246],
    [1.2854388001343414e17, 0.6790579977254159],
    [1.2854388001343414e17, 0.951939128259082],
    [1.2854388001343416e17, 0.8467770172755084],
    [1.2854388001343418e17, 0.37265643819973215],
    [1.2854388001343414e17, 0.8090952493694098],
    [1.2854388001343414e17, 0.13145593960467172],
    [1.2854388001343416e17, 0.7696986684713906],
    [1.2854388001343414e17, 0.1806513373130042],
    [1.2854388001343414e17, 0.6793580433501637],
];

#[test]
fn solve_exact_proves_the_optimum_of_an_offset_column() {
    let raw: Vec<f64> = TWELVE.iter().flatten().copied().collect();
    let z = reference(&raw, 2);
    let optimum = common::brute_force_optimum(&z, 12, 2, 3);
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("offset.csv");
    let mut text = String::from("big,small\n");
    for [a, b] in TWELVE {
        text += &format!("{a:?},{b:?}\n");
    }
    std::fs::write(&data, text).unwrap();
    let labels = dir.path().join("l.lab");
    let (data, labels) = (data.to_str().unwrap(), labels.to_str().unwrap());
    let out = common::cli_json(&[
        "solve-exact",
        "--data",
        data,
        "--k",
        "3",
        "--json",
        "--labels-out",
        labels,
    ]);
    assert_eq!(out["proven_optimal"], true, "{out}");
    let found = microagg::labels::read_labels(std::path::Path::new(labels)).unwrap();
    let sse = microagg_solvers::sse::partition_sse(&z, 2, &found);
    assert!(
        sse <= optimum * (1.0 + 1e-9),
        "proven partition {sse} vs the optimum {optimum} ({:.1} % above)",
        100.0 * (sse / optimum - 1.0)
    );
}
