//! Test instances and data files: the CASC files, generators, in-memory rows, adversarial
//! families and the CSV files the CLI tests read.

use microagg::data::{self, ColumnSelection, Instance};
use std::path::{Path, PathBuf};

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

/// True when `MICROAGG_REQUIRE_DATA=1` (set by `.ci/run`): then a missing CASC file fails
/// the test instead of skipping it.
pub fn data_required() -> bool {
    std::env::var("MICROAGG_REQUIRE_DATA").is_ok_and(|v| v == "1")
}

/// An instance from a generator spec.
pub fn synthetic(spec: &str) -> Instance {
    data::load(spec, &ColumnSelection::All).expect("generator spec is valid")
}

/// The first column of `inst` only (named `NAME[x1]`), the input of a one-attribute method.
pub fn first_column(inst: &Instance) -> Instance {
    let raw: Vec<f64> = (0..inst.n).map(|i| inst.raw[i * inst.d]).collect();
    Instance::from_raw(
        format!("{}[x1]", inst.name),
        inst.source.clone(),
        vec![inst.columns[0].clone()],
        raw,
        inst.sha256.clone(),
    )
    .expect("first column is not constant")
}

/// An instance from in-memory rows (d columns named x1..xd).
pub fn from_rows(rows: &[Vec<f64>]) -> Instance {
    let d = rows[0].len();
    let raw: Vec<f64> = rows.iter().flatten().copied().collect();
    let cols = (1..=d).map(|j| format!("x{j}")).collect();
    Instance::from_raw("rows", "rows", cols, raw, "test".into()).expect("valid rows")
}

pub fn line(values: &[f64]) -> Instance {
    from_rows(&values.iter().map(|&v| vec![v]).collect::<Vec<_>>())
}

/// The xorshift64 generator (shifts 13, 7, 17) started at `seed`: a cheap deterministic
/// stream of `u64`s for tests that draw without `rand`.
pub fn xorshift64(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// A random size for the brute-force tests, drawn in this order: `n` in `ns`, `d` in `ds`,
/// then `k` in 2..=min(`k_most`, n / 2); `(n, d, k)`.
pub fn random_size(
    rng: &mut impl rand::Rng,
    ns: std::ops::RangeInclusive<usize>,
    ds: std::ops::RangeInclusive<usize>,
    k_most: usize,
) -> (usize, usize, usize) {
    let n = rng.random_range(ns);
    let d = rng.random_range(ds);
    let k = rng.random_range(2..=k_most.min(n / 2));
    (n, d, k)
}

/// `n` rows of `d` values in three clusters `spacing` apart (row i in cluster i mod 3, each
/// value jittered uniformly in [-1, 1)), row-major.
pub fn clustered_rows(rng: &mut impl rand::Rng, n: usize, d: usize, spacing: f64) -> Vec<f64> {
    (0..n * d)
        .map(|t| ((t / d) % 3) as f64 * spacing + rng.random_range(-1.0..1.0))
        .collect()
}

/// Rows of one of six adversarial families (row-major, n x d), chosen by `case % 6`: uniform,
/// duplicates (three distinct rows), ties (a small integer grid), scaled by 10^-9..10^9, two far
/// clusters with a tiny spread, outliers (two far records beside a tight blob).
pub fn adversarial_family(rng: &mut impl rand::Rng, case: usize, n: usize, d: usize) -> Vec<f64> {
    match case % 6 {
        // Uniform.
        0 => (0..n * d).map(|_| rng.random_range(-2.0..2.0)).collect(),
        // Duplicates: few distinct rows.
        1 => duplicated_rows(rng, n, d),
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

/// `n` rows of `d` values, each a copy of one of three random rows (values in [-1, 1)),
/// row-major.
pub fn duplicated_rows(rng: &mut impl rand::Rng, n: usize, d: usize) -> Vec<f64> {
    let distinct: Vec<f64> = (0..3 * d).map(|_| rng.random_range(-1.0..1.0)).collect();
    (0..n)
        .flat_map(|_| {
            let r = rng.random_range(0..3);
            distinct[r * d..(r + 1) * d].to_vec()
        })
        .collect()
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
    let w = random_weights(rng, n, ties);
    (x, w)
}

/// `n` random weights: each from {1e-3, 1, 1e3} when `ties`, else log-uniform in 1e-3..1e3.
pub fn random_weights(rng: &mut impl rand::Rng, n: usize, ties: bool) -> Vec<f64> {
    (0..n)
        .map(|_| {
            if ties {
                [1e-3, 1.0, 1e3][rng.random_range(0..3)]
            } else {
                10f64.powf(rng.random_range(-3.0..3.0))
            }
        })
        .collect()
}

/// Write `text` to the file `name` in `dir` and return its path.
pub fn write_file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Appends the `.rs` files under `dir`, recursively, to `out`.
pub fn rust_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
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

/// A temporary directory holding `d.csv`, written by [`write_weighted_csv`] with `n` records
/// drawn from the seed `seed`: (directory, file, weights).
pub fn weighted_csv_in_tempdir(seed: u64, n: usize) -> (tempfile::TempDir, PathBuf, Vec<f64>) {
    use rand::SeedableRng;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.csv");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let w = write_weighted_csv(&path, &mut rng, n);
    (dir, path, w)
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
