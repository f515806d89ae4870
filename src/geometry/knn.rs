//! # All k-nearest neighbours of a static record set
//!
//! For every record its `m` nearest other records by squared Euclidean distance, ties to
//! the lowest record id, nearest first: the lists of [`super::neighbours`] and of the nn
//! lower bound. No record is ever deleted, so the index is a plain kd-tree built once:
//! median splits on the widest coordinate of the node's bounding box (the two halves of a
//! large node built in parallel, the same tree as one thread builds), each leaf's bounding
//! box and coordinates stored in one contiguous run (the box test and the distances then
//! read adjacent cache lines, and record ids are read only for the few records close
//! enough to enter a list), and each inner node keeps, in 40 bytes, for its split
//! coordinate the largest value of its left child and the smallest of its right child.
//!
//! A query (itself a record) descends to the nearer child first and keeps one running lower
//! bound on the distance to the current node's records (Arya & Mount's incremental
//! distance): per coordinate the squared gap between the query and the last child entered
//! across it; entering the farther child changes one coordinate's term, so the bound costs
//! O(1) per node instead of a box distance in O(d). Leaves are scanned with the distance
//! computed exactly as the brute force computes it (`partition::sq_dist`: the terms
//! `(a - b) * (a - b)` added in column order). Queries are run in tree order (consecutive
//! queries touch the same part of the tree), in parallel chunks; each list is written at
//! its record's place, so the lists do not depend on the order or the thread count.
//!
//! **Exactness** (proofs/P06, section "The static all-kNN tree"). A subtree is skipped only
//! when its bound, widened by a relative 2^-20 and an absolute 2^-1000, is strictly above
//! the current m-th distance: the widening covers the rounding of the incremental updates
//! and of the computed distances, so every record the brute force ranks among the m nearest
//! (ties included) lies in a visited leaf and is compared by (computed distance, id) as the
//! brute force compares. The lists are the brute force's, bit for bit.
//!
//! ## Complexity
//! Build O(n log n d), O(n d) memory (a copy of the rows) plus O(n / LEAF) nodes. A query
//! visits O(log n) nodes and a few leaves in low d, more as d grows (kd-tree bounds loosen
//! with d); measured times in `studies/study-engine.txt`. Output O(n m).
//!
//! ## References
//! - Friedman, J. H., Bentley, J. L. and Finkel, R. A. (1977). An algorithm for finding best
//!   matches in logarithmic expected time. ACM TOMS 3(3), 209-226.
//! - Arya, S. and Mount, D. M. (1993). Algorithms for fast vector quantization. Proc. IEEE
//!   Data Compression Conference, 381-390 (incremental distance calculation).

use rayon::prelude::*;

/// Largest number of records in a leaf (measured best at d = 10; see the study file).
pub const LEAF: usize = 32;
/// Leaves are stored column by column in runs padded to a multiple of this many records, so
/// that the distances of a block of records are computed side by side.
const LANES: usize = 4;

/// Relative widening of a subtree's bound before it may prune (see the module doc).
const GROW: f64 = 1.0 + 1.0 / (1u64 << 20) as f64;
/// Absolute widening (covers underflow of the threshold's own product).
const TINY: f64 = 9.332_636_185_032_189e-302; // 2^-1000

/// Marks a leaf in [`Node::dim`].
const LEAF_MARK: u32 = u32::MAX;

/// A node, 40 bytes (the walk's cache lines: nodes are read in preorder, the left child
/// right after its parent). An inner node splits on `dim`, its left child at the next
/// index and its right child at `right`; a leaf has `dim == LEAF_MARK` and its index in
/// `StaticKdTree::leaves` in `right`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Node {
    /// Smallest value of `dim` among the node's records.
    lo: f64,
    /// Largest value of `dim` among the left child's records.
    left_hi: f64,
    /// Smallest value of `dim` among the right child's records.
    right_lo: f64,
    /// Largest value of `dim` among the node's records.
    hi: f64,
    dim: u32,
    right: u32,
}

/// A leaf: tree positions `start..start + len`, and from `base` in
/// `StaticKdTree::blocks` its bounding box (d lows, d highs) followed by its coordinates
/// column by column (each column padded to a multiple of [`LANES`]), so that the box test
/// and the distances read one contiguous run of memory.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Leaf {
    start: u32,
    len: u32,
    base: usize,
}

/// A kd-tree over a fixed set of rows, for k-nearest queries by member records.
pub struct StaticKdTree<'a> {
    d: usize,
    z: &'a [f64],
    /// Each leaf's box and coordinates (see [`Leaf`]).
    blocks: Vec<f64>,
    leaves: Vec<Leaf>,
    /// Record id at each tree position.
    ids: Vec<u32>,
    nodes: Vec<Node>,
}

impl<'a> StaticKdTree<'a> {
    /// The tree over the `n = z.len() / d` rows of `z` (row-major).
    ///
    /// Panics if `d == 0`, `z.len()` is not a multiple of `d` or n >= 2^32 - 1.
    pub fn new(z: &'a [f64], d: usize) -> Self {
        Self::with_leaf_size(z, d, LEAF)
    }

    /// As [`new`](Self::new) with leaves of at most `leaf` records (for studies; `leaf`
    /// >= 1).
    pub fn with_leaf_size(z: &'a [f64], d: usize, leaf: usize) -> Self {
        assert!(leaf >= 1, "leaves of at least one record");
        assert!(d > 0 && z.len().is_multiple_of(d), "rows of d > 0 values");
        let n = z.len() / d;
        assert!(n < u32::MAX as usize, "fewer than 2^32 - 1 records");
        let mut order: Vec<u32> = (0..n as u32).collect();
        let (nodes, mut leaves) = if n > 0 {
            build_parallel(z, d, leaf, &mut order, 0)
        } else {
            (Vec::new(), Vec::new())
        };
        let mut base = 0;
        for lf in leaves.iter_mut() {
            lf.base = base;
            base += 2 * d + d * (lf.len as usize).div_ceil(LANES) * LANES;
        }
        let mut blocks = vec![0.0; base];
        // Each leaf fills its own run of `blocks`: independent, so in parallel.
        let mut runs: Vec<(&Leaf, &mut [f64])> = Vec::with_capacity(leaves.len());
        let mut rest = blocks.as_mut_slice();
        for (w, lf) in leaves.iter().enumerate() {
            let end = leaves.get(w + 1).map_or(base, |next| next.base);
            let (run, tail) = rest.split_at_mut(end - lf.base);
            runs.push((lf, run));
            rest = tail;
        }
        let fill = |(lf, run): (&Leaf, &mut [f64])| {
            let rows = &order[lf.start as usize..(lf.start + lf.len) as usize];
            let padded = rows.len().div_ceil(LANES) * LANES;
            let (lows, rest) = run.split_at_mut(d);
            let (highs, cols) = rest.split_at_mut(d);
            for j in 0..d {
                let col = rows.iter().map(|&i| z[i as usize * d + j]);
                lows[j] = col.clone().fold(f64::INFINITY, f64::min);
                highs[j] = col.clone().fold(f64::NEG_INFINITY, f64::max);
                for (c, v) in cols[j * padded..].iter_mut().zip(col) {
                    *c = v;
                }
            }
        };
        // One task's worth of leaves or fewer: on this thread (no pool for a small tree).
        if runs.len() > FILL_TASK {
            crate::parallel::install(|| {
                runs.into_par_iter().with_min_len(FILL_TASK).for_each(fill)
            });
        } else {
            runs.into_iter().for_each(fill);
        }
        StaticKdTree {
            d,
            z,
            blocks,
            leaves,
            ids: order,
            nodes,
        }
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// True when the tree holds no record.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Record ids in tree order (neighbouring ids lie close in space).
    pub fn ids_in_tree_order(&self) -> &[u32] {
        &self.ids
    }

    /// The `m` nearest other records of record `id`, by (computed squared distance, id),
    /// nearest first, written to `out` (cleared first; fewer when the tree holds at most m
    /// records).
    pub fn nearest_of(&self, id: u32, m: usize, scratch: &mut Scratch, out: &mut Vec<u32>) {
        self.nearest_of_approx(id, m, 0.0, scratch, out);
    }

    /// As [`nearest_of`](Self::nearest_of), but a subtree or leaf is skipped as soon as
    /// every record in it is more than `1 + eps` times (in distance) farther than the
    /// current m-th (Arya et al.'s (1 + eps)-approximate search): the i-th record listed is
    /// then within `1 + eps` of the true i-th nearest distance, up to the rounding the
    /// exact search covers. `eps = 0` is the exact search, bit for bit. Deterministic:
    /// the list depends only on the tree and the query.
    pub(crate) fn nearest_of_approx(
        &self,
        id: u32,
        m: usize,
        eps: f64,
        scratch: &mut Scratch,
        out: &mut Vec<u32>,
    ) {
        let d = self.d;
        scratch.reset(d, m);
        scratch.shrink = 1.0 / ((1.0 + eps) * (1.0 + eps));
        let q = &self.z[id as usize * d..(id as usize + 1) * d];
        if m > 0 && !self.nodes.is_empty() {
            self.search(0, 0.0, q, id, scratch);
        }
        out.clear();
        out.extend(scratch.best.iter().map(|b| b.1));
    }

    fn search(&self, node: usize, rd: f64, q: &[f64], qid: u32, s: &mut Scratch) {
        s.nodes_visited += 1;
        let nd = &self.nodes[node];
        if nd.dim == LEAF_MARK {
            self.scan_leaf(nd.right as usize, q, qid, s);
            return;
        }
        let j = nd.dim as usize;
        // Gap from q to each child's extent along j: [lo, left_hi] and [right_lo, hi].
        let gap = |a: f64, b: f64| (a - q[j]).max(q[j] - b).max(0.0);
        let old = s.off2[j];
        // Every record of a child lies at least its gap away along j; the term replaces
        // the one an ancestor set on j when larger (both are valid lower bounds).
        let term = |g: f64| (g * g).max(old);
        let (tl, tr) = (term(gap(nd.lo, nd.left_hi)), term(gap(nd.right_lo, nd.hi)));
        let (rl, rr) = (rd - old + tl, rd - old + tr);
        let right = nd.right as usize;
        let children = if rl <= rr {
            [(node + 1, rl, tl), (right, rr, tr)]
        } else {
            [(right, rr, tr), (node + 1, rl, tl)]
        };
        for (child, child_rd, t) in children {
            if child_rd > s.threshold {
                break; // the second child's bound is no smaller
            }
            s.off2[j] = t;
            self.search(child, child_rd, q, qid, s);
        }
        s.off2[j] = old;
    }

    /// The leaf's box bound (exact: no slack needed, see the module doc), then its records'
    /// distances, [`LANES`] at a time, each one's terms added in column order. A record's
    /// id is read only when its distance could enter the list (the ids are a separate
    /// array: reading all of them cost a cache miss per leaf).
    #[inline]
    fn scan_leaf(&self, leaf: usize, q: &[f64], qid: u32, s: &mut Scratch) {
        let d = self.d;
        s.leaves_reached += 1;
        let lf = self.leaves[leaf];
        let len = lf.len as usize;
        let padded = len.div_ceil(LANES) * LANES;
        let block = &self.blocks[lf.base..lf.base + 2 * d + d * padded];
        let (lo, rest) = block.split_at(d);
        let (hi, cols) = rest.split_at(d);
        if s.best.len() == s.m {
            let mut acc = 0.0;
            for j in 0..d {
                let t = (lo[j] - q[j]).max(q[j] - hi[j]).max(0.0);
                acc += t * t;
            }
            if acc > s.worst * s.shrink {
                return;
            }
        }
        s.leaves_scanned += 1;
        s.dist.clear();
        s.dist.resize(padded, 0.0);
        leaf_distances(cols, q, &mut s.dist);
        let ids = &self.ids[lf.start as usize..lf.start as usize + len];
        // By index: the id is loaded only after its distance passed the test.
        #[allow(clippy::needless_range_loop)]
        for l in 0..len {
            // Farther than the m-th best: not kept whatever the id (offer's own test).
            let dl = s.dist[l];
            if dl <= s.worst && ids[l] != qid {
                s.offer(dl, ids[l]);
            }
        }
    }
}

/// The squared distances from `q` to the records of a leaf stored column by column
/// (`cols[j padded + p]`, `padded = out.len()`), each added in column order as the brute
/// force adds them; with AVX2 when the processor has it (the same operations in the same
/// order, no fused multiply-add, so the same bits).
fn leaf_distances(cols: &[f64], q: &[f64], out: &mut [f64]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor supports AVX2 (checked above).
            unsafe { leaf_distances_avx2(cols, q, out) };
            return;
        }
    }
    leaf_distances_portable(cols, q, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn leaf_distances_avx2(cols: &[f64], q: &[f64], out: &mut [f64]) {
    leaf_distances_portable(cols, q, out);
}

#[inline(always)]
fn leaf_distances_portable(cols: &[f64], q: &[f64], out: &mut [f64]) {
    let padded = out.len();
    for block in (0..padded).step_by(LANES) {
        let mut acc = [0.0f64; LANES];
        for (j, &qj) in q.iter().enumerate() {
            let x = &cols[j * padded + block..j * padded + block + LANES];
            for l in 0..LANES {
                // The brute force's sq_dist(q, x): (a - b) * (a - b) in column order.
                acc[l] += (qj - x[l]) * (qj - x[l]);
            }
        }
        out[block..block + LANES].copy_from_slice(&acc);
    }
}

/// Per-thread working memory of a query.
#[derive(Debug, Default, Clone)]
pub struct Scratch {
    /// Per coordinate, the squared gap in the current bound.
    off2: Vec<f64>,
    /// The best (distance, id) so far, ascending.
    best: Vec<(f64, u32)>,
    /// The distances of the leaf being scanned.
    dist: Vec<f64>,
    m: usize,
    /// A subtree whose bound exceeds this cannot hold a better record.
    threshold: f64,
    /// The m-th best distance so far (infinite until m are found).
    worst: f64,
    /// 1 / (1 + eps)^2 of an approximate search, 1 for the exact one (`x * 1.0 == x`, so
    /// the exact search's tests are unchanged bit for bit).
    shrink: f64,
    /// Leaves whose records were compared, over every query with this scratch (a study
    /// figure).
    pub leaves_scanned: u64,
    /// Leaves the walk reached (box-tested or scanned; a study figure).
    pub leaves_reached: u64,
    /// Nodes the walk entered (a study figure).
    pub nodes_visited: u64,
}

impl Scratch {
    fn reset(&mut self, d: usize, m: usize) {
        self.off2.clear();
        self.off2.resize(d, 0.0);
        self.best.clear();
        self.m = m;
        self.threshold = f64::INFINITY;
        self.worst = f64::INFINITY;
        self.shrink = 1.0;
    }

    /// Keep (dist, id) if it ranks among the m best by (distance, id).
    #[inline]
    fn offer(&mut self, dist: f64, id: u32) {
        let full = self.best.len() == self.m;
        if full {
            let (wd, wi) = self.best[self.m - 1];
            if dist > wd || (dist == wd && id > wi) {
                return;
            }
            self.best.pop();
        }
        let at = self
            .best
            .iter()
            .rposition(|&(bd, bi)| bd < dist || (bd == dist && bi < id))
            .map_or(0, |p| p + 1);
        self.best.insert(at, (dist, id));
        if self.best.len() == self.m {
            self.worst = self.best[self.m - 1].0;
            self.threshold = self.worst * GROW * self.shrink + TINY;
        }
    }
}

/// Queries per chunk between two calls of the stop rule and progress report.
pub(crate) const CHUNK: usize = 16_384;
/// Queries per parallel task inside a chunk.
const TASK: usize = 256;

/// The `m` nearest other records of every one of the `n = z.len() / d` rows of `z`, by
/// (computed squared distance, id), nearest first: record i's list at `[i m, (i + 1) m)`
/// (m must be below n). `stop` is asked before each chunk of `CHUNK` queries (`None`
/// once it says stop), `progress` told the number of records done after each.
pub fn all_nearest(
    z: &[f64],
    d: usize,
    m: usize,
    stop: impl FnMut() -> bool,
    progress: impl FnMut(usize),
) -> Option<Vec<u32>> {
    all_nearest_approx(z, d, m, 0.0, stop, progress)
}

/// As [`all_nearest`] with the (1 + `eps`)-approximate search of
/// `StaticKdTree::nearest_of_approx` (`eps = 0`: the exact lists). The lists still do
/// not depend on the thread count: each is a function of the tree and its record only.
pub fn all_nearest_approx(
    z: &[f64],
    d: usize,
    m: usize,
    eps: f64,
    mut stop: impl FnMut() -> bool,
    mut progress: impl FnMut(usize),
) -> Option<Vec<u32>> {
    assert!(
        eps >= 0.0 && eps.is_finite(),
        "eps = {eps}: finite and >= 0"
    );
    let n = z.len() / d.max(1);
    assert!(m < n.max(1), "m = {m} neighbours need more than m records");
    if m == 0 {
        return Some(Vec::new());
    }
    let tree = StaticKdTree::new(z, d);
    let mut list = vec![0u32; n * m];
    let mut done = 0;
    for (c, chunk) in tree.ids_in_tree_order().chunks(CHUNK).enumerate() {
        if stop() {
            return None;
        }
        let first = c * CHUNK;
        let found: Vec<Vec<u32>> = crate::parallel::install(|| {
            (0..chunk.len().div_ceil(TASK))
                .into_par_iter()
                .map_init(
                    || (Scratch::default(), Vec::new()),
                    |(scratch, one), t| {
                        let from = first + t * TASK;
                        let to = (from + TASK).min(first + chunk.len());
                        let mut lists = Vec::with_capacity((to - from) * m);
                        for &id in &chunk[from - first..to - first] {
                            tree.nearest_of_approx(id, m, eps, scratch, one);
                            lists.extend_from_slice(one);
                        }
                        lists
                    },
                )
                .collect()
        });
        for (t, lists) in found.iter().enumerate() {
            for (w, l) in lists.chunks(m).enumerate() {
                let i = chunk[t * TASK + w] as usize;
                list[i * m..(i + 1) * m].copy_from_slice(l);
            }
        }
        done += chunk.len();
        progress(done);
    }
    Some(list)
}

#[cfg(test)]
mod tests;

mod build;
#[cfg(test)]
use build::{build, PARALLEL_BUILD};
use build::{build_parallel, FILL_TASK};
