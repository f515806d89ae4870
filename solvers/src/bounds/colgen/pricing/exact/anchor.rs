//! # One anchor of the exact pricing
//!
//! The steps of [`super`]'s search at one anchor `r` and size `m`: the candidates (the
//! radius from the top duals, then from the candidates' own duals, then the star test, P09
//! B2.1 and B3), the root bound that stands in for the search once the budget is spent, the
//! depth-first search itself ([`super::node`]), the singletons of `k = 1`, and the result
//! of a finished search.
//!
//! ## Complexity
//! O(n) per anchor for the candidates (one pass over the anchor's distances, keeping the
//! `m - 1` largest duals and the `m - 1` smallest star terms by sorted insertion, O(m) each
//! time one enters), O(c log c) for their order, O(c m) for the per-anchor terms of the
//! search's bounds, the search as in [`super::node`].
//!
//! ## References
//! proofs/P09 (part B).

use super::super::super::cuts::CutDuals;
use super::super::super::pairs::PairConstraints;
use super::super::{sum_smallest, Geometry};
use super::{anchor_slot, keep_smallest, ExactBudget, ExactPricing, Search};

impl<'a> Search<'a> {
    /// A search over groups with duals `y`, cuts `cuts`, branching decisions `pairs`, within
    /// `budget`, from the incumbent `inc` (`enumerate`: keep every group below it).
    pub(super) fn new(
        geo: &'a Geometry,
        y: &'a [f64],
        cuts: &'a CutDuals,
        pairs: Option<&'a PairConstraints>,
        budget: ExactBudget<'a>,
        inc: f64,
        enumerate: bool,
    ) -> Self {
        Search {
            geo,
            y,
            cuts,
            cut_count: vec![0; cuts.len()],
            m: 0,
            cands: Vec::new(),
            cand_y: Vec::new(),
            nn_half: Vec::new(),
            star_suffix: Vec::new(),
            star_ready: Vec::new(),
            star: Vec::new(),
            members: Vec::new(),
            inc,
            open_min: f64::INFINITY,
            nodes: 0,
            budget,
            out_of_budget: false,
            columns: Vec::new(),
            pairs,
            pos: if pairs.is_some() {
                vec![usize::MAX; geo.n]
            } else {
                Vec::new()
            },
            enumerate,
            frames: Vec::new(),
        }
    }

    /// Narrow `cands` to the possible members of a group with medoid `r` of `self.m` records
    /// and reduced cost below the incumbent: within the radius from the `m` largest duals
    /// (`top_m`, `slack` relative), then from the candidates' own duals, then the star test
    /// (`star_slack` absolute). False when fewer than `m - 1` candidates are left.
    pub(super) fn filter_candidates(
        &mut self,
        cy: &mut Vec<f64>,
        r: usize,
        top_m: f64,
        slack: f64,
        star_slack: f64,
    ) -> bool {
        let (geo, y, m, n) = (self.geo, self.y, self.m, self.geo.n);
        let radius = 2.0 * (top_m + self.inc) * slack;
        // One pass: the records within the radius, and the m - 1 largest duals among them
        // (as the m - 1 smallest of -y, in `cy`).
        self.cands.clear();
        cy.clear();
        for (j, &yj) in y.iter().enumerate().take(n) {
            if j != r && geo.d(r, j) <= radius {
                self.cands.push(j);
                keep_smallest(cy, m - 1, -yj);
            }
        }
        if self.cands.len() < m - 1 {
            return false;
        }
        // Tighter radius from the duals of the candidates themselves.
        let top = -cy.iter().sum::<f64>();
        let lim = y[r] + top + self.inc;
        if lim <= 0.0 {
            return false;
        }
        let radius = 2.0 * lim * slack;
        self.cands.retain(|&j| geo.d(r, j) <= radius);
        if self.cands.len() < m - 1 {
            return false;
        }
        // Star test (P09 B3): a group with medoid r and rc < inc has
        // -y_r + sum_{b != r} f(b) < inc, f(b) = D_rb / 2 - y_b.
        let star_of = |j: usize| geo.d(r, j) / 2.0 - y[j];
        cy.clear();
        for &j in &self.cands {
            keep_smallest(cy, m - 1, star_of(j));
        }
        let f_m2 = if m > 2 { cy[..m - 2].iter().sum() } else { 0.0 };
        let smallest_rest = cy[m - 2];
        if -y[r] + f_m2 + smallest_rest >= self.inc + star_slack {
            return false;
        }
        // A member b needs f(b) + (the m - 2 smallest f) < inc + y_r.
        let f_lim = self.inc + y[r] - f_m2 + star_slack;
        self.cands.retain(|&j| star_of(j) < f_lim);
        self.cands.len() >= m - 1
    }

    /// The root bound of anchor `r` over its candidates (the larger of the pair-sum and the
    /// star bound, P09 B2 and B3): what the anchor proves once the budget is spent.
    pub(super) fn root_bound(&self, cy: &mut Vec<f64>, r: usize) -> f64 {
        let (geo, y, m) = (self.geo, self.y, self.m);
        let mf = m as f64;
        let star_of = |j: usize| geo.d(r, j) / 2.0 - y[j];
        cy.clear();
        cy.extend(
            self.cands
                .iter()
                .map(|&j| geo.d(r, j) / mf + geo.nn(j, m - 2) / (2.0 * mf) - y[j]),
        );
        let pair = -y[r] + sum_smallest(cy, m - 1);
        cy.clear();
        cy.extend(self.cands.iter().map(|&j| star_of(j)));
        let star = -y[r] + sum_smallest(cy, m - 1);
        pair.max(star)
    }

    /// Every size-k subset of a group inside `{r} ∪ cands` has its medoid there, so the least
    /// size-k value of those records (and the carried incumbent, which bounds the groups the
    /// tests excluded) completes the slot of anchor `r` at the current size as well as its
    /// root bound `root` does (P20 "Completion after the budget"); the caller takes the
    /// larger. Returns (slot, that value, `root`).
    pub(super) fn completion_after_budget(
        &self,
        per_size: &[f64],
        r: usize,
        root: f64,
    ) -> (usize, f64, f64) {
        let w = super::anchor_sizes(self.geo);
        let g_k = self
            .cands
            .iter()
            .map(|&b| per_size[b * w])
            .fold(self.inc.min(per_size[r * w]), f64::min);
        (anchor_slot(self.geo, r, self.m), g_k, root)
    }

    /// The depth-first search of the groups with medoid `r` over the candidates, promising
    /// candidates first.
    pub(super) fn search_anchor(&mut self, r: usize) {
        let (geo, y, m) = (self.geo, self.y, self.m);
        let mf = m as f64;
        let star_of = |j: usize| geo.d(r, j) / 2.0 - y[j];
        let key = |j: usize| geo.d(r, j) / mf + geo.nn(j, m - 2) / (2.0 * mf) - y[j];
        self.cands
            .sort_unstable_by(|&a, &b| key(a).total_cmp(&key(b)).then(a.cmp(&b)));
        self.cand_y.clear();
        self.cand_y.extend(self.cands.iter().map(|&j| y[j]));
        // Rows q = 1..m-1 (the root already holds the anchor).
        self.nn_half.clear();
        for q in 1..m {
            let row = self.cands.iter().map(|&j| geo.nn(j, q - 1) / (2.0 * mf));
            self.nn_half.extend(row);
        }
        self.star_suffix.clear();
        self.star_suffix.resize((m - 1) * self.cands.len(), 0.0);
        self.star_ready.clear();
        self.star_ready.resize(m - 1, false);
        // The root node (depth 1, the anchor alone): every candidate's distance to it.
        self.ensure_frame(1);
        let to_t = &mut self.frames[1].to_t;
        to_t.clear();
        to_t.extend(self.cands.iter().map(|&j| geo.d(r, j)));
        self.star.clear();
        self.star.extend(self.cands.iter().map(|&j| star_of(j)));
        self.members.clear();
        self.members.push(r as u32);
        let paired = self.pairs.is_some();
        if paired {
            for (p, &j) in self.cands.iter().enumerate() {
                self.pos[j] = p;
            }
        }
        let pen_r = self.enter_cuts(r); // 0: one record fills no cut
        self.dfs(0.0, y[r], -y[r], pen_r, 0);
        self.leave_cuts(r);
        if paired {
            for &j in &self.cands {
                self.pos[j] = usize::MAX;
            }
        }
    }

    /// Singletons (`k = 1`): `rc({r}) = -y_r`, evaluated directly; with per-anchor values,
    /// each anchor's slot, then the incumbent folded into `global` and reset.
    pub(super) fn singletons(
        &mut self,
        anchors: &mut Option<(f64, &mut Vec<f64>)>,
        global: &mut (f64, f64),
    ) {
        for (r, &yr) in self.y.iter().enumerate() {
            if self.pairs.is_some_and(|c| !c.allows(&[r as u32])) {
                continue;
            }
            if let Some((_, per_size)) = anchors.as_mut() {
                let at = anchor_slot(self.geo, r, 1);
                per_size[at] = per_size[at].min(-yr);
            }
            if -yr < self.inc && !self.enumerate {
                self.inc = -yr;
            }
            if -yr < 0.0 || (self.enumerate && -yr < self.inc) {
                self.columns.push((-yr, vec![r as u32]));
            }
        }
        if let Some((threshold, _)) = anchors.as_ref() {
            global.0 = global.0.min(self.inc);
            self.inc = *threshold;
        }
    }

    /// The result of the search: the proven bound, whether it is exact, the columns (most
    /// negative first, at most the budget's), and the bookkeeping of the caller.
    pub(super) fn result(
        mut self,
        seconds_per_size: Vec<f64>,
        completed: Vec<usize>,
        completed_after_budget: Vec<(usize, f64, f64)>,
    ) -> ExactPricing {
        let mut columns = std::mem::take(&mut self.columns);
        columns.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        columns.dedup_by(|a, b| a.1 == b.1);
        columns.truncate(self.budget.max_columns);
        ExactPricing {
            rc_lower_bound: self.inc.min(self.open_min).min(0.0),
            exact: !self.out_of_budget,
            columns,
            nodes: self.nodes,
            seconds_per_size,
            completed,
            completed_after_budget,
        }
    }
}
