//! # Synthetic instances
//!
//! Seeded generators, named by a spec string `KIND:key=value,...`:
//!
//! | spec | records |
//! |---|---|
//! | `uniform:n=N,d=D[,lo=0,hi=1][,seed=0]` | i.i.d. uniform on [lo, hi)^d |
//! | `gauss:n=N,d=D[,clusters=5][,sigma_lo=0.1][,sigma_hi=0.3][,span=1][,seed=0]` | Gaussian clusters: centres uniform on [0, span]^d, cluster i has covariance sigma_i^2 I with sigma_i uniform on [sigma_lo, sigma_hi]; n split evenly (the first n mod c clusters get one more) |
//! | `heavy:n=N,d=D[,seed=0]` | heavy tails: each value `±(U^(-1/2) - 1)`, `U` uniform on (0, 1], sign even (Pareto tail of index 2: finite mean, infinite variance) |
//! | `sim1[:seed=S]` | IMHM paper's Sim-1: uniform, n = 100, d = 10, on [-1000, 1000) |
//! | `sim2[:seed=S]` | Sim-2: 5 Gaussian clusters of 20 records, d uniform in 4..=8, centres on [0, 1]^d, sigma in [0.1, 0.3] |
//! | `sim3[:seed=S]` | Sim-3: as Sim-2 with centres on [0, 2]^d |
//!
//! The same spec always gives the same values (ChaCha8 seeded from `seed`); the instance's
//! sha256 is that of the generated values.
//!
//! ## References
//! Mortazavi, Jalili & Gohargazi (2013), "Fast data-oriented microaggregation algorithm for
//! large numerical datasets", Knowledge-Based Systems (the IMHM paper), Section 5.

use super::instance::{sha256_of_values, Instance, RawCopy};
use crate::error::{Error, Result};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};
use std::collections::BTreeMap;

const KINDS: [&str; 6] = ["uniform", "gauss", "heavy", "sim1", "sim2", "sim3"];

/// Most values (n d) a generator makes: 10^8 doubles are 800 MB, beyond which a spec is
/// far more likely a typo than a plan (and would otherwise abort on allocation).
pub const MAX_VALUES: usize = 100_000_000;

/// Check n and d (and the cluster count) before anything is allocated.
fn check_size(spec: &str, n: usize, d: usize, clusters: usize) -> Result<()> {
    if n == 0 || d == 0 {
        return Err(Error::usage(format!("{spec}: need n >= 1 and d >= 1")));
    }
    match n.checked_mul(d) {
        Some(v) if v <= MAX_VALUES && clusters.saturating_mul(d) <= MAX_VALUES => Ok(()),
        _ => Err(Error::usage(format!(
            "{spec}: n x d = {n} x {d} values (or {clusters} clusters x d) is more than this \
             workbench generates (at most {MAX_VALUES} values, 800 MB)"
        ))),
    }
}

/// Whether `spec` names a generator (its arguments are not checked; nothing is generated).
pub(crate) fn names_generator(spec: &str) -> bool {
    let kind = spec.split_once(':').map_or(spec, |(kind, _)| kind);
    KINDS.contains(&kind)
}

/// Generate an instance if `spec` names a generator; `Ok(None)` if it does not.
pub fn try_generate(spec: &str) -> Result<Option<Instance>> {
    generate(spec, RawCopy::Keep)
}

/// As [`try_generate`], keeping the generated values as the raw copy or not (`copy`).
pub(crate) fn generate(spec: &str, copy: RawCopy) -> Result<Option<Instance>> {
    if !names_generator(spec) {
        return Ok(None);
    }
    let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
    let mut args = parse_args(spec, rest)?;
    let seed = args.take_u64("seed", 0)?;
    let (d, raw) = match kind {
        "uniform" => {
            let n = args.take_usize_required("n")?;
            let d = args.take_usize_required("d")?;
            let lo = args.take_f64("lo", 0.0)?;
            let hi = args.take_f64("hi", 1.0)?;
            if !(lo < hi && (hi - lo).is_finite()) {
                return Err(Error::usage(format!(
                    "{spec}: need finite lo < hi with hi - lo representable"
                )));
            }
            args.finish(spec)?;
            check_size(spec, n, d, 1)?;
            (d, uniform(n, d, lo, hi, seed))
        }
        "gauss" => {
            let n = args.take_usize_required("n")?;
            let d = args.take_usize_required("d")?;
            let c = args.take_usize("clusters", 5)?;
            let s_lo = args.take_f64("sigma_lo", 0.1)?;
            let s_hi = args.take_f64("sigma_hi", 0.3)?;
            let span = args.take_f64("span", 1.0)?;
            // Finite bounds keep every generated value finite: |value| <= span + 40 sigma
            // at the very most, far below the largest double.
            const MAX_SCALE: f64 = 1e300;
            if c == 0
                || !(0.0 < s_lo && s_lo <= s_hi && s_hi <= MAX_SCALE)
                || !(span > 0.0 && span <= MAX_SCALE)
            {
                return Err(Error::usage(format!(
                    "{spec}: need clusters >= 1, 0 < sigma_lo <= sigma_hi <= 1e300, 0 < span <= 1e300"
                )));
            }
            args.finish(spec)?;
            check_size(spec, n, d, c)?;
            (d, gaussian_clusters(n, d, c, s_lo, s_hi, span, seed))
        }
        "heavy" => {
            let n = args.take_usize_required("n")?;
            let d = args.take_usize_required("d")?;
            args.finish(spec)?;
            check_size(spec, n, d, 1)?;
            (d, heavy_tailed(n, d, seed))
        }
        "sim1" => (10, uniform(100, 10, -1000.0, 1000.0, seed)),
        "sim2" | "sim3" => {
            let span = if kind == "sim2" { 1.0 } else { 2.0 };
            // d is drawn first from the same stream, so it is part of the seeded instance.
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5157_0000);
            let d = rng.random_range(4..=8usize);
            (d, gaussian_clusters(100, d, 5, 0.1, 0.3, span, seed))
        }
        _ => unreachable!("kind checked against KINDS"),
    };
    args.finish(spec)?;
    if d == 0 || raw.is_empty() {
        return Err(Error::usage(format!("{spec}: need n >= 1 and d >= 1")));
    }
    let columns = (1..=d).map(|j| format!("x{j}")).collect();
    let sha = sha256_of_values(&raw);
    Instance::standardise(spec, spec, columns, raw, sha, copy).map(Some)
}

fn uniform(n: usize, d: usize, lo: f64, hi: f64, seed: u64) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n * d).map(|_| rng.random_range(lo..hi)).collect()
}

/// Values `±(U^(-1/2) - 1)`: `P(|X| > t) = (1 + t)^-2`, so a few records lie far out and
/// the nn bound is weak against the optimum (the hard family of the bounds' table).
fn heavy_tailed(n: usize, d: usize, seed: u64) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n * d)
        .map(|_| {
            let u: f64 = 1.0 - rng.random_range(0.0..1.0);
            let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
            sign * (u.powf(-0.5) - 1.0)
        })
        .collect()
}

fn gaussian_clusters(
    n: usize,
    d: usize,
    c: usize,
    sigma_lo: f64,
    sigma_hi: f64,
    span: f64,
    seed: u64,
) -> Vec<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let centres: Vec<f64> = (0..c * d).map(|_| rng.random_range(0.0..=span)).collect();
    let sigmas: Vec<f64> = (0..c)
        .map(|_| rng.random_range(sigma_lo..=sigma_hi))
        .collect();
    let std_normal = Normal::new(0.0, 1.0).expect("unit normal is valid");
    let mut raw = Vec::with_capacity(n * d);
    for cl in 0..c {
        let size = n / c + usize::from(cl < n % c);
        for _ in 0..size {
            for j in 0..d {
                raw.push(centres[cl * d + j] + sigmas[cl] * std_normal.sample(&mut rng));
            }
        }
    }
    raw
}

/// `key=value` arguments of a spec; every key must be consumed.
struct Args(BTreeMap<String, String>);

fn parse_args(spec: &str, rest: &str) -> Result<Args> {
    let mut map = BTreeMap::new();
    for part in rest.split(',').filter(|p| !p.trim().is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| Error::usage(format!("{spec}: expected key=value, found '{part}'")))?;
        if map
            .insert(k.trim().to_string(), v.trim().to_string())
            .is_some()
        {
            return Err(Error::usage(format!("{spec}: '{k}' given twice")));
        }
    }
    Ok(Args(map))
}

impl Args {
    fn take<T: std::str::FromStr>(&mut self, key: &str) -> Result<Option<T>> {
        match self.0.remove(key) {
            None => Ok(None),
            Some(v) => v.parse().map(Some).map_err(|_| {
                Error::usage(format!("generator parameter {key}={v}: not a valid value"))
            }),
        }
    }
    fn take_u64(&mut self, key: &str, default: u64) -> Result<u64> {
        Ok(self.take(key)?.unwrap_or(default))
    }
    fn take_usize(&mut self, key: &str, default: usize) -> Result<usize> {
        Ok(self.take(key)?.unwrap_or(default))
    }
    fn take_f64(&mut self, key: &str, default: f64) -> Result<f64> {
        Ok(self.take(key)?.unwrap_or(default))
    }
    fn take_usize_required(&mut self, key: &str) -> Result<usize> {
        self.take(key)?
            .ok_or_else(|| Error::usage(format!("generator needs '{key}=...'")))
    }
    fn finish(&self, spec: &str) -> Result<()> {
        match self.0.keys().next() {
            None => Ok(()),
            Some(k) => Err(Error::usage(format!(
                "{spec}: unknown generator parameter '{k}'"
            ))),
        }
    }
}
