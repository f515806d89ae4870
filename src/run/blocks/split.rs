//! # Block splitting
//!
//! The recursive cut of the records into blocks of about `size` records ([`split`],
//! [`split_by`]) and the cut rules ([`CutRule`]: the kd cut across the widest axis at the
//! balanced rank, or the valley cut across the line between MDAV's two seeds at the sparsest
//! place near that rank). The border repair of the cuts is in the parent module.
//!
//! ## Complexity
//! O(m d log(m / size)) for m records (one projection and one selection per node and level).

use crate::data::Instance;

/// A cut of the split: the node's blocks (a range of block indices), the first ones on the
/// side where [`Cut::side`] is at most 0, the others where it is at least 0.
#[derive(Debug, Clone)]
pub struct Cut {
    /// Normal of the cut plane.
    pub normal: Normal,
    pub value: f64,
    pub blocks: std::ops::Range<usize>,
    /// The first block on the positive side.
    pub right: usize,
}

impl Cut {
    /// Signed distance of record `i` to the cut plane (negative on the first blocks' side).
    /// With an axis normal it is the coordinate minus the value, exactly.
    pub fn side(&self, inst: &Instance, i: usize) -> f64 {
        project(inst, i, &self.normal) - self.value
    }
}

/// The normal of a cut plane.
#[derive(Debug, Clone)]
pub enum Normal {
    /// The j-th coordinate axis ([`CutRule::Kd`]).
    Axis(usize),
    /// A unit vector ([`CutRule::Valley`]).
    Unit(Vec<f64>),
}

/// Record `i`'s coordinate along `u`: z_ij itself on an axis, else z_i . u summed in
/// coordinate order.
pub(super) fn project(inst: &Instance, i: usize, u: &Normal) -> f64 {
    let d = inst.d;
    match u {
        Normal::Axis(j) => inst.z[i * d + j],
        Normal::Unit(u) => inst.z[i * d..(i + 1) * d]
            .iter()
            .zip(u)
            .map(|(a, b)| a * b)
            .sum(),
    }
}

/// How a node of the split is cut in two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CutRule {
    /// On the widest coordinate at the balanced rank (the spatial index's rule).
    #[default]
    Kd,
    /// Across the line between MDAV's two seeds of the node (its record farthest from its
    /// centroid, and the record farthest from that one), at the sparsest place within a
    /// quarter of the smaller side's share around the balanced rank: fewer records lie
    /// near the cut, so fewer groups are cut short (the blocks' sizes vary by up to a
    /// quarter).
    Valley,
}

/// The blocks (row indices, ascending within a block) and the cuts in bottom-up order.
#[derive(Debug, Clone, Default)]
pub struct Split {
    pub blocks: Vec<Vec<usize>>,
    pub cuts: Vec<Cut>,
}

/// How many blocks `m` records make with blocks of about `size`: round(m / size), at least 1.
pub(crate) fn block_count(m: usize, size: usize) -> usize {
    ((m + size / 2) / size.max(1)).max(1)
}

/// Cut `rows` into blocks of about `size` records with the kd rule.
pub fn split(inst: &Instance, rows: Vec<usize>, size: usize) -> Split {
    split_by(inst, rows, size, CutRule::Kd)
}

/// Cut `rows` into blocks of about `size` records with `rule`.
pub fn split_by(inst: &Instance, rows: Vec<usize>, size: usize, rule: CutRule) -> Split {
    let b = block_count(rows.len(), size);
    let mut out = Split::default();
    split_node(inst, rows, b, rule, &mut out);
    out
}

fn split_node(inst: &Instance, mut rows: Vec<usize>, b: usize, rule: CutRule, out: &mut Split) {
    if b <= 1 || rows.len() < 2 {
        rows.sort_unstable();
        out.blocks.push(rows);
        return;
    }
    let bl = b / 2;
    let m = rows.len();
    let ml = ((m * bl + b / 2) / b).clamp(1, m - 1);
    // (normal, left count, left blocks, rows already ordered by the cut)
    let (normal, ml, bl, ordered) = match rule {
        CutRule::Valley => match seed_axis(inst, &rows) {
            Some(u) => {
                let at = valley_rank(inst, &mut rows, &u, ml, m * bl.min(b - bl) / (4 * b));
                let bl = ((b * at + m / 2) / m).clamp(1, b - 1);
                (u, at, bl, true)
            }
            None => (widest_axis(inst, &rows), ml, bl, false),
        },
        CutRule::Kd => (widest_axis(inst, &rows), ml, bl, false),
    };
    if !ordered {
        let key = |i: usize| (project(inst, i, &normal), i);
        rows.select_nth_unstable_by(ml, |&a, &c| {
            let (va, ia) = key(a);
            let (vc, ic) = key(c);
            va.total_cmp(&vc).then(ia.cmp(&ic))
        });
    }
    let right = rows.split_off(ml);
    let left_max = rows
        .iter()
        .map(|&i| project(inst, i, &normal))
        .fold(f64::NEG_INFINITY, f64::max);
    let right_min = right
        .iter()
        .map(|&i| project(inst, i, &normal))
        .fold(f64::INFINITY, f64::min);
    let first = out.blocks.len();
    split_node(inst, rows, bl, rule, out);
    let mid = out.blocks.len();
    split_node(inst, right, b - bl, rule, out);
    out.cuts.push(Cut {
        normal,
        value: 0.5 * (left_max + right_min),
        blocks: first..out.blocks.len(),
        right: mid,
    });
}

/// The axis of the widest coordinate (largest max - min, lowest index on ties).
fn widest_axis(inst: &Instance, rows: &[usize]) -> Normal {
    let d = inst.d;
    let dim = (0..d)
        .map(|j| {
            let (lo, hi) = rows
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &i| {
                    let v = inst.z[i * d + j];
                    (l.min(v), h.max(v))
                });
            hi - lo
        })
        .enumerate()
        .fold((0, f64::NEG_INFINITY), |best, (j, w)| {
            if w > best.1 {
                (j, w)
            } else {
                best
            }
        })
        .0;
    Normal::Axis(dim)
}

/// The unit vector from MDAV's first seed of `rows` (farthest from their centroid) to its
/// second (farthest from the first), ties by lowest row; `None` when the rows coincide.
fn seed_axis(inst: &Instance, rows: &[usize]) -> Option<Normal> {
    let d = inst.d;
    let mut c = vec![0.0; d];
    for &i in rows {
        c.iter_mut()
            .zip(&inst.z[i * d..(i + 1) * d])
            .for_each(|(s, v)| *s += v);
    }
    c.iter_mut().for_each(|s| *s /= rows.len() as f64);
    let farthest = |from: &[f64]| {
        let dist = |i: usize| -> f64 {
            inst.z[i * d..(i + 1) * d]
                .iter()
                .zip(from)
                .map(|(a, b)| (a - b) * (a - b))
                .sum()
        };
        rows.iter()
            .map(|&i| (dist(i), i))
            .fold((f64::NEG_INFINITY, usize::MAX), |best, (v, i)| {
                if v > best.0 || (v == best.0 && i < best.1) {
                    (v, i)
                } else {
                    best
                }
            })
            .1
    };
    let r = farthest(&c);
    let s = farthest(&inst.z[r * d..(r + 1) * d]);
    let mut u: Vec<f64> = (0..d)
        .map(|j| inst.z[s * d + j] - inst.z[r * d + j])
        .collect();
    let norm = u.iter().map(|v| v * v).sum::<f64>().sqrt();
    if !(norm > 0.0 && norm.is_finite()) {
        return None;
    }
    u.iter_mut().for_each(|v| *v /= norm);
    Some(Normal::Unit(u))
}

/// Order `rows` so that the first `at` (returned) hold the smallest projections on `u`
/// (ties by row), with `at` within `slack` of `balanced` where the projections are
/// sparsest: the widest span of 2q consecutive projections around the cut (q = m / 128,
/// at least 1), and in that span the widest gap between two consecutive projections; ties
/// to the rank nearest `balanced`, then the lower rank.
fn valley_rank(
    inst: &Instance,
    rows: &mut [usize],
    u: &Normal,
    balanced: usize,
    slack: usize,
) -> usize {
    let m = rows.len();
    let q = (m / 128).max(1);
    let lo = balanced.saturating_sub(slack).max(1);
    let hi = (balanced + slack).min(m - 1);
    let mut keyed: Vec<(f64, usize)> = rows.iter().map(|&i| (project(inst, i, u), i)).collect();
    let cmp = |a: &(f64, usize), c: &(f64, usize)| a.0.total_cmp(&c.0).then(a.1.cmp(&c.1));
    // Sorted only where the cut can go (ranks lo - q .. hi + q).
    let a = lo.saturating_sub(q);
    let z = (hi + q).min(m);
    keyed.select_nth_unstable_by(a, cmp);
    if z < m {
        keyed[a..].select_nth_unstable_by(z - a, cmp);
    }
    keyed[a..z].sort_unstable_by(cmp);
    let span = |r: usize| keyed[(r + q - 1).min(z - 1)].0 - keyed[r.saturating_sub(q).max(a)].0;
    // The best of `ranks` by `score`, ties to the rank nearest `balanced`, then the lower.
    let best = |ranks: std::ops::RangeInclusive<usize>, score: &dyn Fn(usize) -> f64| {
        ranks
            .max_by(|&r, &t| {
                score(r)
                    .total_cmp(&score(t))
                    .then(t.abs_diff(balanced).cmp(&r.abs_diff(balanced)))
                    .then(t.cmp(&r))
            })
            .expect("a non-empty range")
    };
    let sparse = best(lo..=hi, &span);
    // Within the sparsest span, the widest single gap between consecutive projections.
    let gap = |r: usize| keyed[r].0 - keyed[r - 1].0;
    let at = best(
        (sparse + 1).saturating_sub(q).max(lo)..=(sparse + q - 1).min(hi),
        &gap,
    );
    rows.iter_mut().zip(&keyed).for_each(|(r, k)| *r = k.1);
    at
}
