//! # Ryan-Foster pair constraints (branching decisions of branch-and-price)
//!
//! A branch-and-price node ([`crate::bnp`]) restricts the partitions to those in which some
//! record pairs are **together** (in one group) and some are **apart** (in different
//! groups) (Ryan and Foster 1981). A group `S` is compatible with the node when it splits no
//! together pair (`a in S` iff `b in S`) and holds no apart pair; a partition satisfies the
//! node exactly when all its groups are compatible. [`PairConstraints::allows`] is that test;
//! the exact pricing (`ExactSearch::pairs`) evaluates only compatible
//! groups and prunes children that cannot become compatible, so "no negative column" stays
//! a proof at the node (proofs/P17).
//!
//! Together pairs are kept as a union-find of components (together is transitive within a
//! partition); a node whose component exceeds `2k - 1` records or holds an apart pair has no
//! compatible partition with groups of `k..2k-1` records ([`PairConstraints::infeasible`]).
//!
//! A node may also bound the **number of groups** to `lo..=hi` (branching on the group
//! count, proofs/P22 Part E; [`PairConstraints::set_count`]). A partition with at least `lo`
//! groups of at least `k` records has no group above `n - k (lo - 1)` records, so the range
//! caps the compatible groups' size ([`PairConstraints::size_cap`]); the upper end enters
//! the node's bound as its group count ([`PairConstraints::groups_max`]).
//!
//! ## Complexity
//! [`PairConstraints::allows`]: O(sum of the members' constraint degrees · log m) for a
//! group of m members (sorted). Adding a decision: O(n) (component relabelling).
//!
//! ## References
//! Ryan, D. M. and Foster, B. A. (1981). An integer programming approach to scheduling. In
//! Computer Scheduling of Public Transport, North-Holland, 269-280.

/// The group-count range of a region without a count decision.
pub const ANY_COUNT: (usize, usize) = (0, usize::MAX);

/// Together / apart decisions over `n` records.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PairConstraints {
    /// `together[i]`: records that must share `i`'s group (direct decisions only; the
    /// transitive closure follows from checking every member).
    together: Vec<Vec<u32>>,
    /// `apart[i]`: records that must not share `i`'s group.
    apart: Vec<Vec<u32>>,
    /// Component (smallest record) of each record under the together decisions.
    comp: Vec<u32>,
    /// Decisions in the order taken: (a, b, together?).
    decisions: Vec<(u32, u32, bool)>,
    /// The number of groups, `lo..=hi` (`0..=usize::MAX`: no count decision).
    count: (usize, usize),
    /// The largest group a partition with at least `lo` groups can hold, `n - k (lo - 1)`
    /// (`usize::MAX` without a lower end).
    count_cap: usize,
}

impl PairConstraints {
    /// No decision over `n` records.
    pub fn new(n: usize) -> PairConstraints {
        PairConstraints {
            together: vec![Vec::new(); n],
            apart: vec![Vec::new(); n],
            comp: (0..n as u32).collect(),
            decisions: Vec::new(),
            count: ANY_COUNT,
            count_cap: usize::MAX,
        }
    }

    /// Restrict the number of groups of at least `k` records to `lo..=hi` (the range is
    /// replaced, not intersected).
    pub fn set_count(&mut self, lo: usize, hi: usize, k: usize) {
        self.count = (lo, hi);
        self.count_cap = match lo {
            0 => usize::MAX,
            lo => self.n().saturating_sub(k.saturating_mul(lo - 1)),
        };
    }

    /// The group-count range `(lo, hi)` (`(0, usize::MAX)` without a count decision).
    pub fn count(&self) -> (usize, usize) {
        self.count
    }

    /// Whether a count decision was taken.
    pub fn has_count(&self) -> bool {
        self.count != ANY_COUNT
    }

    /// The most groups of a compatible partition into groups of at least `k` records:
    /// `min(hi, floor(n/k))`.
    pub fn groups_max(&self, k: usize) -> usize {
        self.count.1.min(self.n() / k)
    }

    /// The largest compatible group: `2k - 1` (P03), and `n - k (lo - 1)` with at least `lo`
    /// groups (every other group holds at least `k` records).
    pub fn size_cap(&self, k: usize) -> usize {
        (2 * k - 1).min(self.count_cap)
    }

    /// Records covered.
    pub fn n(&self) -> usize {
        self.comp.len()
    }

    /// No decision taken.
    pub fn is_empty(&self) -> bool {
        self.decisions.is_empty()
    }

    /// The decisions in the order taken: (a, b, together?).
    pub fn decisions(&self) -> &[(u32, u32, bool)] {
        &self.decisions
    }

    /// Records `a` and `b` must share a group.
    pub fn add_together(&mut self, a: u32, b: u32) {
        self.together[a as usize].push(b);
        self.together[b as usize].push(a);
        let (ca, cb) = (self.comp[a as usize], self.comp[b as usize]);
        let (keep, gone) = (ca.min(cb), ca.max(cb));
        for c in self.comp.iter_mut() {
            if *c == gone {
                *c = keep;
            }
        }
        self.decisions.push((a.min(b), a.max(b), true));
    }

    /// Records `a` and `b` must be in different groups.
    pub fn add_apart(&mut self, a: u32, b: u32) {
        self.apart[a as usize].push(b);
        self.apart[b as usize].push(a);
        self.decisions.push((a.min(b), a.max(b), false));
    }

    /// Together partners of `i` (direct decisions).
    #[inline]
    pub fn together_of(&self, i: usize) -> &[u32] {
        &self.together[i]
    }

    /// Apart partners of `i` (direct decisions).
    #[inline]
    pub fn apart_of(&self, i: usize) -> &[u32] {
        &self.apart[i]
    }

    /// Whether the pair is already decided, directly or by implication (same together
    /// component, or components joined by an apart decision).
    pub fn decided(&self, a: u32, b: u32) -> bool {
        let (ca, cb) = (self.comp[a as usize], self.comp[b as usize]);
        if ca == cb {
            return true;
        }
        (0..self.n()).any(|i| {
            self.comp[i] == ca && self.apart[i].iter().any(|&j| self.comp[j as usize] == cb)
        })
    }

    /// True when no partition into groups of `k..=2k-1` records satisfies the decisions: a
    /// together component above `2k - 1` records or above the size cap, an apart pair inside
    /// one component, or a count range that no partition into groups of at least `k` records
    /// meets (`lo > hi`, `lo > floor(n/k)`, or a size cap below `k`).
    pub fn infeasible(&self, k: usize) -> bool {
        let n = self.n();
        let (lo, hi) = self.count;
        let cap = self.size_cap(k);
        if lo > hi || lo > n / k || cap < k {
            return true;
        }
        let mut size = vec![0usize; n];
        for &c in &self.comp {
            size[c as usize] += 1;
        }
        if size.iter().any(|&s| s > cap) {
            return true;
        }
        (0..n).any(|i| {
            self.apart[i]
                .iter()
                .any(|&j| self.comp[j as usize] == self.comp[i])
        })
    }

    /// Whether a group (members sorted ascending) is compatible: every together partner of a
    /// member is a member, no apart partner of a member is, and with a count decision it
    /// fits the size cap (the cap's `2k - 1` part is the pricing's, not checked here).
    pub fn allows(&self, members: &[u32]) -> bool {
        self.fits_count(members.len())
            && members.iter().all(|&i| {
                self.together[i as usize]
                    .iter()
                    .all(|j| members.binary_search(j).is_ok())
                    && !self.apart[i as usize]
                        .iter()
                        .any(|j| members.binary_search(j).is_ok())
            })
    }

    /// Whether a group of `m` records fits the count decision's size cap `n - k (lo - 1)`
    /// (any `m` without one).
    fn fits_count(&self, m: usize) -> bool {
        m <= self.count_cap
    }

    /// [`Self::allows`] for members in any order (small groups: linear scans).
    pub fn allows_unsorted(&self, members: &[u32]) -> bool {
        self.fits_count(members.len())
            && members.iter().all(|&i| {
                self.together[i as usize]
                    .iter()
                    .all(|j| members.contains(j))
                    && !self.apart[i as usize].iter().any(|j| members.contains(j))
            })
    }

    /// Whether a labelling satisfies every decision, the group count's range included.
    pub fn satisfied_by(&self, labels: &[usize]) -> bool {
        let groups: std::collections::HashSet<usize> = labels.iter().copied().collect();
        (self.count.0..=self.count.1).contains(&groups.len())
            && self
                .decisions
                .iter()
                .all(|&(a, b, t)| (labels[a as usize] == labels[b as usize]) == t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_respect_together_and_apart() {
        let mut c = PairConstraints::new(6);
        c.add_together(0, 1);
        c.add_together(1, 2);
        c.add_apart(3, 4);
        assert!(c.allows(&[0, 1, 2]));
        assert!(c.allows(&[0, 1, 2, 3]));
        assert!(!c.allows(&[0, 1])); // splits 1-2
        assert!(!c.allows(&[0, 2, 5])); // lacks 1
        assert!(!c.allows(&[3, 4, 5]));
        assert!(c.allows(&[3, 5]));
        assert!(c.decided(0, 2)); // same component
        assert!(!c.decided(0, 3));
        c.add_apart(2, 3);
        assert!(c.decided(0, 3)); // 0's component is apart from 3
        assert!(!c.infeasible(2)); // component {0,1,2} fits 2k-1 = 3
        assert!(c.infeasible(1)); // ... but not 2k-1 = 1
        assert!(c.satisfied_by(&[0, 0, 0, 1, 2, 2]));
        assert!(!c.satisfied_by(&[0, 0, 0, 0, 1, 1]));
    }
}
