//! # Heuristic pricing
//!
//! Greedy growth from a seed record over its nearest neighbours, minimising the reduced cost
//! (with the subset-row cut penalty when cuts are active), then best-improvement add / remove /
//! swap local search. Fast, no proof: a group found here is a column, never a bound. Moved out
//! of [`super`] (whose module doc describes the pricing problem) unchanged.
//!
//! ## Complexity
//! O(L m) per growth or local-search step with L neighbours and groups of m records; from all
//! seeds O(n L k^2).
//!
//! ## References
//! Aloise, D., Hansen, P., Rocha, C. and Santi, E. (2014). Column generation bounds for
//! numerical microaggregation. Journal of Global Optimization 60, 165-182 (heuristic pricing
//! before exact pricing; this heuristic is our own).

use super::super::cuts::CutDuals;
use super::Geometry;

/// Heuristic pricing from `seed`: the best group found (reduced cost, sorted members) among
/// the seed and its nearest neighbours, or None when the seed has too few neighbours.
pub fn heuristic(geo: &Geometry, y: &[f64], seed: usize) -> Option<(f64, Vec<u32>)> {
    heuristic_cuts(geo, y, &CutDuals::none(), seed)
}

/// Cut penalties of the moves of the heuristic, from a record-indexed membership flag.
struct MovePenalty<'a> {
    cuts: &'a CutDuals,
    /// `in_group[i]`: record `i` is in the current group (empty without cuts).
    in_group: Vec<bool>,
}

impl MovePenalty<'_> {
    /// Weighted count (multiplier numerators) of the members of cut `c` in the group, not
    /// counting record `skip`.
    fn hits(&self, c: u32, skip: usize) -> u16 {
        let cut = &self.cuts.cuts[c as usize];
        cut.records()
            .iter()
            .zip(cut.multipliers())
            .filter(|&(&i, _)| i as usize != skip && self.in_group[i as usize])
            .map(|(_, &p)| u16::from(p))
            .sum()
    }

    /// Penalty of cut `c` that record `b` (numerator `p` in cut `c`) adds over the others of
    /// the group, not counting record `skip` (`w_C` per multiple of the denominator crossed).
    fn step(&self, c: u32, p: u8, skip: usize) -> f64 {
        let h = self.hits(c, skip);
        self.cuts.penalty_step(c, h, h + u16::from(p))
    }

    /// Penalty added by putting record `b` into the group without record `out` (`usize::MAX`:
    /// none).
    fn add(&self, b: usize, out: usize) -> f64 {
        self.cuts
            .of(b)
            .iter()
            .map(|&(c, p)| self.step(c, p, out))
            .sum()
    }

    /// Penalty removed by taking record `a` out.
    fn remove(&self, a: usize) -> f64 {
        self.cuts
            .of(a)
            .iter()
            .map(|&(c, p)| self.step(c, p, a))
            .sum()
    }
}

/// [`heuristic`] for the reduced cost with subset-row cuts (every move is charged its change
/// of `pen`); the reported reduced cost includes the penalty.
pub fn heuristic_cuts(
    geo: &Geometry,
    y: &[f64],
    cuts: &CutDuals,
    seed: usize,
) -> Option<(f64, Vec<u32>)> {
    let (k, hi) = (geo.k, 2 * geo.k - 1);
    let with_cuts = !cuts.is_empty();
    let mut mp = MovePenalty {
        cuts,
        in_group: if with_cuts {
            vec![false; geo.n]
        } else {
            Vec::new()
        },
    };
    let mut cand: Vec<usize> = Vec::with_capacity(geo.pool + 1);
    cand.push(seed);
    cand.extend(geo.neighbours(seed).iter().map(|&j| j as usize));
    let l = cand.len();
    if l < k {
        return None;
    }
    let hi = hi.min(l);
    let mut in_s = grow(geo, y, &cand, hi, &mut mp)?;
    // Local search: best-improvement add / remove / swap, recomputing the sums (and the
    // penalty, kept as the cuts' change per move).
    for _ in 0..4 * hi {
        let members: Vec<usize> = (0..l).filter(|&j| in_s[j]).collect();
        let m = members.len();
        if with_cuts {
            for &c in &cand {
                mp.in_group[c] = false;
            }
            for &a in &members {
                mp.in_group[cand[a]] = true;
            }
        }
        let to_s: Vec<f64> = cand
            .iter()
            .map(|&c| members.iter().map(|&a| geo.d(cand[a], c)).sum())
            .collect();
        let p: f64 = members.iter().map(|&a| to_s[a]).sum::<f64>() / 2.0;
        let ys: f64 = members.iter().map(|&a| y[cand[a]]).sum();
        // Reduced costs below are relative to the current penalty (it cancels in the
        // comparison with `cur`).
        let cur = p / m as f64 - ys;
        let dpen = |out: Option<usize>, inn: Option<usize>| -> f64 {
            if !with_cuts {
                return 0.0;
            }
            let mut v = 0.0;
            if let Some(a) = out {
                v -= mp.remove(cand[a]);
            }
            if let Some(b) = inn {
                v += mp.add(cand[b], out.map_or(usize::MAX, |a| cand[a]));
            }
            v
        };
        let mut mv: Option<(f64, Option<usize>, Option<usize>)> = None;
        let mut consider = |rc: f64, out: Option<usize>, inn: Option<usize>| {
            if rc < cur - 1e-12 * (1.0 + cur.abs()) && mv.is_none_or(|(b, _, _)| rc < b) {
                mv = Some((rc, out, inn));
            }
        };
        for b in (0..l).filter(|&b| !in_s[b]) {
            if m < hi {
                consider(
                    (p + to_s[b]) / (m + 1) as f64 - ys - y[cand[b]] + dpen(None, Some(b)),
                    None,
                    Some(b),
                );
            }
            for &a in &members {
                let pp = p - to_s[a] + to_s[b] - geo.d(cand[a], cand[b]);
                consider(
                    pp / m as f64 - ys + y[cand[a]] - y[cand[b]] + dpen(Some(a), Some(b)),
                    Some(a),
                    Some(b),
                );
            }
        }
        if m > k {
            for &a in &members {
                consider(
                    (p - to_s[a]) / (m - 1) as f64 - ys + y[cand[a]] + dpen(Some(a), None),
                    Some(a),
                    None,
                );
            }
        }
        match mv {
            Some((_, out, inn)) => {
                if let Some(a) = out {
                    in_s[a] = false;
                }
                if let Some(b) = inn {
                    in_s[b] = true;
                }
            }
            None => break,
        }
    }
    let mut members: Vec<u32> = (0..l)
        .filter(|&j| in_s[j])
        .map(|j| cand[j] as u32)
        .collect();
    members.sort_unstable();
    Some((geo.reduced_cost_cuts(&members, y, cuts), members))
}

/// Greedy growth of [`heuristic_cuts`] from the seed `cand[0]` over its candidates `cand`:
/// add the candidate of least reduced cost (with its penalty change) up to `hi` records;
/// the membership flags of the best group of at least `k` records met on the way.
fn grow(
    geo: &Geometry,
    y: &[f64],
    cand: &[usize],
    hi: usize,
    mp: &mut MovePenalty,
) -> Option<Vec<bool>> {
    let (k, l, seed) = (geo.k, cand.len(), cand[0]);
    let with_cuts = !mp.cuts.is_empty();
    let mut in_s = vec![false; l];
    let mut to_s: Vec<f64> = cand.iter().map(|&j| geo.d(seed, j)).collect();
    in_s[0] = true;
    if with_cuts {
        mp.in_group[seed] = true;
    }
    let (mut m, mut p, mut ys, mut pen) = (1usize, 0.0f64, y[seed], 0.0f64);
    let mut best: Option<(f64, Vec<bool>)> = None;
    while m < hi {
        let mut pick: Option<(f64, usize, f64)> = None;
        for j in 0..l {
            if !in_s[j] {
                let dp = if with_cuts {
                    mp.add(cand[j], usize::MAX)
                } else {
                    0.0
                };
                let rc = (p + to_s[j]) / (m + 1) as f64 - ys - y[cand[j]] + pen + dp;
                if pick.is_none_or(|(b, _, _)| rc < b) {
                    pick = Some((rc, j, dp));
                }
            }
        }
        let (rc, j, dp) = pick?;
        in_s[j] = true;
        if with_cuts {
            mp.in_group[cand[j]] = true;
        }
        p += to_s[j];
        ys += y[cand[j]];
        pen += dp;
        m += 1;
        for (t, &c) in to_s.iter_mut().zip(cand) {
            *t += geo.d(cand[j], c);
        }
        if m >= k && best.as_ref().is_none_or(|(b, _)| rc < *b) {
            best = Some((rc, in_s.clone()));
        }
    }
    best.map(|(_, in_s)| in_s)
}
