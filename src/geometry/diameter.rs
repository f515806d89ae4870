//! # Diameter of a shrinking point set
//!
//! The pair of remaining records farthest apart, found again and again while records are
//! removed (the selection step of MD and DBFS). Naively each query is O(m^2 d). Each query
//! here first computes the centroid c of the m remaining records and R = max_y |y - c|. If a
//! pair x, y is farther apart than some distance b, then |x - c| + |y - c| > b, so the
//! endpoint farther from c has |x - c| > b / 2: it suffices to know the exact farthest partner
//! F(x) of the records with |x - c| > b / 2, where b is the best pair found. Records are
//! visited by decreasing |x - c| until that threshold; a visited record is skipped when an
//! upper bound on F(x) is already below b, namely |x - c| + R (triangle inequality) or an
//! earlier exact F(x) whose partner has since left (records leaving never make F larger);
//! an earlier exact F(x) whose partner is still present is used as is; otherwise F(x) costs
//! one O(m d) pass. The answer is exact. Ties: records visited by lowest index among equal
//! |x - c|, the farthest partner is the lowest index among equals, and a later pair replaces
//! the best only if strictly farther.
//!
//! ## Complexity
//! Each query O(m d + m log m + t m d) for the t records whose farthest partner is recomputed
//! (in practice a few: only records near the hull have bounds above the diameter). O(n)
//! memory beyond the instance.
//!
//! ## References
//! No published source is relied on: the correctness argument is the paragraph above
//! (triangle inequality, and farthest distances only shrink as records leave).

use crate::data::Instance;
use crate::partition::sq_dist;

pub struct Diameter<'a> {
    inst: &'a Instance,
    /// Remaining record ids (unordered) and each record's position in it (usize::MAX once
    /// removed).
    remaining: Vec<usize>,
    pos: Vec<usize>,
    /// Farthest partner when last computed (usize::MAX if never) and its distance.
    partner: Vec<usize>,
    partner_dist: Vec<f64>,
}

impl<'a> Diameter<'a> {
    pub fn new(inst: &'a Instance) -> Self {
        let n = inst.n;
        Diameter {
            inst,
            remaining: (0..n).collect(),
            pos: (0..n).collect(),
            partner: vec![usize::MAX; n],
            partner_dist: vec![f64::INFINITY; n],
        }
    }

    /// The records `ids` only.
    pub fn of(inst: &'a Instance, ids: &[usize]) -> Self {
        let n = inst.n;
        let mut pos = vec![usize::MAX; n];
        for (p, &i) in ids.iter().enumerate() {
            pos[i] = p;
        }
        Diameter {
            inst,
            remaining: ids.to_vec(),
            pos,
            partner: vec![usize::MAX; n],
            partner_dist: vec![f64::INFINITY; n],
        }
    }

    pub fn len(&self) -> usize {
        self.remaining.len()
    }

    pub fn is_empty(&self) -> bool {
        self.remaining.is_empty()
    }

    pub fn contains(&self, i: usize) -> bool {
        self.pos[i] != usize::MAX
    }

    pub fn remove(&mut self, i: usize) {
        let p = self.pos[i];
        if p == usize::MAX {
            return;
        }
        let last = *self.remaining.last().expect("non-empty");
        self.remaining.swap_remove(p);
        if last != i {
            self.pos[last] = p;
        }
        self.pos[i] = usize::MAX;
    }

    /// The two remaining records farthest apart (None with fewer than two remaining).
    pub fn farthest_pair(&mut self) -> Option<(usize, usize)> {
        let m = self.remaining.len();
        if m < 2 {
            return None;
        }
        let d = self.inst.d;
        let mut c = vec![0.0; d];
        for &i in &self.remaining {
            c.iter_mut()
                .zip(self.inst.row(i))
                .for_each(|(a, v)| *a += v);
        }
        c.iter_mut().for_each(|a| *a /= m as f64);
        let to_c: Vec<f64> = self
            .remaining
            .iter()
            .map(|&i| sq_dist(self.inst.row(i), &c).sqrt())
            .collect();
        let radius = to_c.iter().copied().fold(0.0, f64::max);
        let mut order: Vec<(f64, usize)> = to_c
            .iter()
            .zip(&self.remaining)
            .map(|(&dc, &i)| (dc, i))
            .collect();
        order.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        // A relative 1e-12 of slack keeps the bounds valid under rounding.
        let slack = 1e-12;
        let mut best = (-1.0f64, usize::MAX, usize::MAX);
        for (dc, i) in order {
            if 2.0 * dc * (1.0 + slack) < best.0 {
                break;
            }
            let j = self.partner[i];
            let dist = if j != usize::MAX && self.contains(j) {
                self.partner_dist[i]
            } else {
                let bound =
                    ((dc + radius) * (1.0 + slack)).min(self.partner_dist[i] * (1.0 + slack));
                if bound < best.0 {
                    continue;
                }
                let (dist, j) = self.farthest_from(i);
                self.partner[i] = j;
                self.partner_dist[i] = dist;
                dist
            };
            if dist > best.0 {
                best = (dist, i, self.partner[i]);
            }
        }
        Some((best.1, best.2))
    }

    /// Exact farthest remaining record from i (ties: lowest index) and its distance.
    fn farthest_from(&self, i: usize) -> (f64, usize) {
        let x = self.inst.row(i);
        let mut best = (-1.0, usize::MAX);
        for &j in &self.remaining {
            if j == i {
                continue;
            }
            let dj = sq_dist(x, self.inst.row(j));
            if dj > best.0 || (dj == best.0 && j < best.1) {
                best = (dj, j);
            }
        }
        (best.0.max(0.0).sqrt(), best.1)
    }
}

#[cfg(test)]
mod tests {
    use super::Diameter;
    use crate::data::Instance;
    use crate::partition::sq_dist;

    #[test]
    fn matches_brute_force_while_records_leave() {
        let raw: Vec<f64> = (0..60)
            .map(|i| ((i * 37 % 61) as f64).sin() * 10.0 + (i % 7) as f64)
            .collect();
        let inst = Instance::from_raw(
            "t",
            "t",
            vec!["a".into(), "b".into(), "c".into()],
            raw,
            "t".into(),
        )
        .unwrap();
        let mut diam = Diameter::new(&inst);
        let mut alive: Vec<usize> = (0..inst.n).collect();
        while alive.len() >= 2 {
            let (a, b) = diam.farthest_pair().unwrap();
            let mut best = 0.0f64;
            for x in 0..alive.len() {
                for y in x + 1..alive.len() {
                    best = best.max(sq_dist(inst.row(alive[x]), inst.row(alive[y])));
                }
            }
            assert_eq!(sq_dist(inst.row(a), inst.row(b)), best);
            diam.remove(a);
            alive.retain(|&i| i != a);
        }
    }
}
