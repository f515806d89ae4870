//! # mu-Approx (forest of nearest-neighbour edges, tree decomposition, split)
//!
//! Domingo-Ferrer, Sebe & Solanas (2008), a polynomial-time approximation to optimal
//! multivariate microaggregation in the line of Aggarwal et al.'s r-gather forests:
//!
//! 1. Forest: every record is joined by an edge to its nearest other record (ties: lowest
//!    index; an edge that would close a cycle, i.e. the second copy of a mutual pair, is
//!    skipped). Then, while a tree has fewer than k records, the shortest edge from it to a
//!    record outside it is added (trees are completed in order of their lowest record).
//! 2. Decomposition: a tree of more than max(2k - 1, 3k - 5) records is split. If some edge
//!    leaves two trees of at least k records each, the longest such edge is removed and both
//!    parts are decomposed again. Otherwise (the Aggarwal et al. case) there is a record v
//!    whose branches (the trees of T - v) all have fewer than k records: the branches, largest
//!    first, fill groups that close as soon as they reach k records; v and the unfilled
//!    remainder join the last closed group unless together they reach k.
//! 3. Every group of 2k or more records is split in two: the record farthest from the
//!    group's centroid with its k - 1 nearest records of the group, and the rest (repeated
//!    on the rest while it still has 2k or more records, which the sizes of step 2 rule out
//!    except in the v case for small k). This is the description quoted by Kabir et al.
//!    (2015, Section II, `../shared/papers/kabir2015-sorting-framework.txt`).
//!
//! ## Readings chosen
//! - Step 2's choice among removable edges (the published method only needs one) is the
//!   longest edge, as in MST partitioning; ties to the lower (smaller endpoint, larger
//!   endpoint) pair. Trees are rooted at their lowest record to find v, descending into the
//!   unique child subtree of at least k records. Groups built in the v case need not be
//!   trees (branches meet only at v) and have k..3k-3 records.
//!   `tests/construct/heuristics_5b.rs::muapprox_hand_case` pins the forest, cut and v readings.
//!
//! ## Against the published values (not reproduced)
//! Kabir et al. (2015) Tables VI-VIII quote mu-Approx from Domingo-Ferrer et al. (2008), for
//! k = 3, 4, 5, 10. Ours (published in brackets):
//! Tarragona 16.6709 (17.10), 19.9714 (20.51), 24.1907 (26.04), 38.7794 (38.80);
//! Census 6.2586 (6.25), 8.6913 (8.47), 10.5109 (10.78), 17.3683 (17.01);
//! EIA 0.4012 (0.43), 0.5688 (0.59), 0.7969 (0.83), 2.2869 (2.26).
//! Khomnotai et al. (2018, Table 5, `../shared/papers/khomnotai2018-decompose-shrink.txt`)
//! quote 2.17 for EIA k = 10 from another source, so the printed values themselves vary.
//! The gaps go both ways, up to 7 % (Tarragona k = 5), so they come from a different
//! reading, not from a bug that only loses quality. The original paper is not available
//! here; the likely places are the cut rule of step 2 (which removable edge goes) and the
//! forest of step 1. A second reading tried, Aggarwal et al.'s cut at the deepest record
//! whose subtree has >= k records, does not reproduce them either (Tarragona 17.4141,
//! 20.1800, 24.6276, 37.7919). We did not tune the code to the table;
//! `tests/construct/heuristics_5b.rs::muapprox_against_published` pins our values and their distance
//! to the published ones (within 8 %).
//!
//! ## Complexity
//! O(n^2 d) for the nearest neighbours and the completion of small trees (each completion
//! scans the tree's records against all others), O(n s) for the decomposition of trees of
//! s records, O(m d log m) for the split of each large group of m records; O(n d) memory.
//!
//! ## References
//! Domingo-Ferrer, Sebe & Solanas (2008), "A polynomial-time approximation to optimal
//! multivariate microaggregation", Computers & Mathematics with Applications 55(4),
//! pp. 714-732. Aggarwal, Feder, Kenthapadi, Khuller, Panigrahy, Thomas & Zhu (2006),
//! "Achieving anonymity via clustering", PODS 2006 (the forest and its decomposition). The
//! paper is not in `../shared/papers`: this follows its published description.

use crate::data::Instance;
use crate::init::GroupsMethod;
use crate::method::MethodInfo;
use crate::params::NoParams;
use crate::partition::sq_dist;

/// The `muapprox` initializer.
pub const METHOD: GroupsMethod = GroupsMethod {
    name: "muapprox",
    groups: muapprox_groups,
};

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        METHOD.name,
        "mu-Approx: nearest-neighbour forest completed to trees of >= k, decomposed into k..max(2k-1,3k-5), groups of >= 2k split in two",
        "Domingo-Ferrer, Sebe & Solanas 2008",
        |_: NoParams| METHOD,
    )
    .deterministic()
}

struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }
}

/// Step 1: the forest's edges (a, b) with a < b, every tree of at least k records.
pub fn forest(inst: &Instance, k: usize) -> Vec<(usize, usize)> {
    let n = inst.n;
    let mut uf = UnionFind {
        parent: (0..n).collect(),
    };
    let mut members: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    let mut edges = Vec::new();
    let mut join = |uf: &mut UnionFind, members: &mut Vec<Vec<usize>>, a: usize, b: usize| {
        let (ra, rb) = (uf.find(a), uf.find(b));
        if ra == rb {
            return false;
        }
        // Keep the lower root so ids stay deterministic.
        let (keep, gone) = (ra.min(rb), ra.max(rb));
        uf.parent[gone] = keep;
        let moved = std::mem::take(&mut members[gone]);
        members[keep].extend(moved);
        edges.push((a.min(b), a.max(b)));
        true
    };
    if n < 2 {
        return edges;
    }
    for i in 0..n {
        let xi = inst.row(i);
        let mut best = (f64::INFINITY, usize::MAX);
        for j in 0..n {
            if j != i {
                let dd = sq_dist(xi, inst.row(j));
                if dd < best.0 {
                    best = (dd, j);
                }
            }
        }
        join(&mut uf, &mut members, i, best.1);
    }
    for s in 0..n {
        loop {
            let r = uf.find(s);
            if members[r].len() >= k || members[r].len() == n {
                break;
            }
            // Shortest edge (u inside, w outside), ties to the lowest (u, w).
            let mut best = (f64::INFINITY, usize::MAX, usize::MAX);
            let mut inside = members[r].clone();
            inside.sort_unstable();
            for &u in &inside {
                let xu = inst.row(u);
                for w in 0..n {
                    if uf.find(w) != r {
                        let dd = sq_dist(xu, inst.row(w));
                        if dd < best.0 || (dd == best.0 && (u, w) < (best.1, best.2)) {
                            best = (dd, u, w);
                        }
                    }
                }
            }
            join(&mut uf, &mut members, best.1, best.2);
        }
    }
    edges
}

/// Step 2: decompose every tree of the forest; returns the groups (before step 3).
pub fn decompose(inst: &Instance, k: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let n = inst.n;
    let bound = (2 * k - 1).max((3 * k).saturating_sub(5));
    let mut f = Forest::new(n, edges);
    let mut seen = vec![false; n];
    let mut groups = Vec::new();
    let mut todo: Vec<usize> = Vec::new();
    for s in 0..n {
        if seen[s] {
            continue;
        }
        todo.push(s);
        while let Some(start) = todo.pop() {
            // Collect the tree of `start`, then root it at its lowest record.
            let mut nodes = f.tree_of(start);
            for &u in &nodes {
                seen[u] = true;
            }
            let sz = nodes.len();
            if sz <= bound {
                nodes.sort_unstable();
                groups.push(nodes);
                continue;
            }
            let root = *nodes.iter().min().expect("non-empty");
            let order = f.root_at(root);
            if let Some(v) = f.longest_removable(inst, edges, &order, k) {
                f.alive[f.parent_edge[v]] = false;
                todo.push(f.parent[v]);
                todo.push(v);
                continue;
            }
            // No removable edge: descend to the record v whose branches all have < k records.
            let v = f.centre(root, k);
            for mut g in branch_groups(f.cut_at(v, &nodes), v, k) {
                g.sort_unstable();
                groups.push(g);
            }
        }
    }
    groups
}

/// The forest being decomposed: adjacency lists (neighbour, edge) sorted by neighbour, the
/// edges not yet removed, and scratch arrays indexed by record (parent, parent edge and
/// subtree size of the last rooting; `mark`, a visit stamp per record).
struct Forest {
    adj: Vec<Vec<(usize, usize)>>,
    alive: Vec<bool>,
    parent: Vec<usize>,
    parent_edge: Vec<usize>,
    size: Vec<usize>,
    mark: Vec<usize>,
    stamp: usize,
}

impl Forest {
    fn new(n: usize, edges: &[(usize, usize)]) -> Forest {
        let mut adj: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
        for (e, &(a, b)) in edges.iter().enumerate() {
            adj[a].push((b, e));
            adj[b].push((a, e));
        }
        adj.iter_mut().for_each(|l| l.sort_unstable());
        Forest {
            adj,
            alive: vec![true; edges.len()],
            parent: vec![usize::MAX; n],
            parent_edge: vec![usize::MAX; n],
            size: vec![0usize; n],
            mark: vec![usize::MAX; n],
            stamp: 0,
        }
    }

    /// The records reachable from `start` over live edges (breadth first, `start` first).
    fn tree_of(&mut self, start: usize) -> Vec<usize> {
        self.stamp += 1;
        let mut nodes = vec![start];
        self.mark[start] = self.stamp;
        grow_over_live_edges(
            &self.adj,
            &self.alive,
            &mut self.mark,
            self.stamp,
            &mut nodes,
        );
        nodes
    }

    /// Root the tree of `root`: its DFS order from the root (preorder), with parents,
    /// parent edges and subtree sizes set.
    fn root_at(&mut self, root: usize) -> Vec<usize> {
        self.stamp += 1;
        let mut order = Vec::new();
        let mut stack = vec![root];
        self.mark[root] = self.stamp;
        self.parent[root] = usize::MAX;
        self.parent_edge[root] = usize::MAX;
        while let Some(u) = stack.pop() {
            order.push(u);
            for &(w, e) in self.adj[u].iter().rev() {
                if self.alive[e] && self.mark[w] != self.stamp {
                    self.mark[w] = self.stamp;
                    self.parent[w] = u;
                    self.parent_edge[w] = e;
                    stack.push(w);
                }
            }
        }
        for &u in &order {
            self.size[u] = 1;
        }
        for &u in order.iter().rev() {
            if self.parent[u] != usize::MAX {
                self.size[self.parent[u]] += self.size[u];
            }
        }
        order
    }

    /// The record below the longest edge whose removal leaves at least `k` records on both
    /// sides (ties: the larger edge), if any.
    fn longest_removable(
        &self,
        inst: &Instance,
        edges: &[(usize, usize)],
        order: &[usize],
        k: usize,
    ) -> Option<usize> {
        let sz = order.len();
        let mut cut: Option<(f64, (usize, usize), usize)> = None;
        for &v in &order[1..] {
            if self.size[v] >= k && sz - self.size[v] >= k {
                let (a, b) = edges[self.parent_edge[v]];
                let len = sq_dist(inst.row(a), inst.row(b));
                let better = match cut {
                    None => true,
                    Some((cl, cp, _)) => len.total_cmp(&cl).then((cp).cmp(&(a, b))).is_gt(),
                };
                if better {
                    cut = Some((len, (a, b), v));
                }
            }
        }
        cut.map(|(_, _, v)| v)
    }

    /// From `root` down to the record whose branches all have fewer than `k` records.
    fn centre(&self, root: usize, k: usize) -> usize {
        let mut v = root;
        loop {
            let next = self.adj[v]
                .iter()
                .find(|&&(w, e)| self.alive[e] && self.parent[w] == v && self.size[w] >= k);
            match next {
                Some(&(w, _)) => v = w,
                None => break,
            }
        }
        v
    }

    /// Remove the edges of `v` and return the branches of its tree `nodes` without it, each
    /// a sorted record list.
    fn cut_at(&mut self, v: usize, nodes: &[usize]) -> Vec<Vec<usize>> {
        for &(_, e) in &self.adj[v] {
            self.alive[e] = false;
        }
        let mut branches: Vec<Vec<usize>> = Vec::new();
        self.stamp += 1;
        self.mark[v] = self.stamp;
        for &(w, _) in &self.adj[v] {
            if self.mark[w] == self.stamp || !nodes.contains(&w) {
                continue;
            }
            let mut b = vec![w];
            self.mark[w] = self.stamp;
            grow_over_live_edges(&self.adj, &self.alive, &mut self.mark, self.stamp, &mut b);
            b.sort_unstable();
            branches.push(b);
        }
        branches
    }
}

/// Grow `found` (its records marked `stamp`) breadth first over the live edges of `adj`,
/// marking each record it adds with `stamp`.
fn grow_over_live_edges(
    adj: &[Vec<(usize, usize)>],
    alive: &[bool],
    mark: &mut [usize],
    stamp: usize,
    found: &mut Vec<usize>,
) {
    let mut p = 0;
    while p < found.len() {
        let u = found[p];
        p += 1;
        for &(w, e) in &adj[u] {
            if alive[e] && mark[w] != stamp {
                mark[w] = stamp;
                found.push(w);
            }
        }
    }
}

/// The branches around `v` (each under `k` records) gathered into groups of at least `k`,
/// largest branches first; `v` joins the last open group, or the last closed one when the
/// open one stays below `k`.
fn branch_groups(mut branches: Vec<Vec<usize>>, v: usize, k: usize) -> Vec<Vec<usize>> {
    branches.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(&b[0])));
    let mut closed: Vec<Vec<usize>> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    for b in branches {
        open.extend(b);
        if open.len() >= k {
            closed.push(std::mem::take(&mut open));
        }
    }
    open.push(v);
    if open.len() >= k || closed.is_empty() {
        closed.push(open);
    } else {
        closed.last_mut().expect("one closed group").extend(open);
    }
    closed
}

/// Step 3: while `g` has 2k or more records, the record farthest from its centroid (ties:
/// lowest index) and its k - 1 nearest records of `g` form a group; the rest is the last.
pub(crate) fn split_in_two(
    inst: &Instance,
    k: usize,
    mut g: Vec<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    g.sort_unstable();
    while g.len() >= 2 * k {
        let d = inst.d;
        let mut c = vec![0.0; d];
        for &i in &g {
            c.iter_mut().zip(inst.row(i)).for_each(|(a, v)| *a += v);
        }
        c.iter_mut().for_each(|a| *a /= g.len() as f64);
        let mut far = (f64::NEG_INFINITY, usize::MAX);
        for &i in &g {
            let dd = sq_dist(inst.row(i), &c);
            if dd > far.0 {
                far = (dd, i);
            }
        }
        let r = far.1;
        let mut by: Vec<(f64, usize)> = g
            .iter()
            .map(|&i| (sq_dist(inst.row(i), inst.row(r)), i))
            .collect();
        by.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut taken: Vec<usize> = by[..k].iter().map(|p| p.1).collect();
        taken.sort_unstable();
        g.retain(|i| taken.binary_search(i).is_err());
        out.push(taken);
    }
    out.push(g);
}

/// The groups of `muapprox` (before the feasibility check).
pub(crate) fn muapprox_groups(inst: &Instance, k: usize) -> Vec<Vec<usize>> {
    let edges = forest(inst, k);
    let mut groups = Vec::new();
    for g in decompose(inst, k, &edges) {
        split_in_two(inst, k, g, &mut groups);
    }
    groups
}
