//! # All k-nearest neighbours of a static record set
//!
//! For every record its `m` nearest other records by squared Euclidean distance, ties to
//! the lowest record id, nearest first: the lists of [`super::neighbours`] and of the nn
//! lower bound. No record is ever deleted, so the index is a plain kd-tree built once:
//! median splits on the widest coordinate of the node's bounding box, the records copied
//! into tree order (a leaf is one contiguous run of rows), and each inner node keeps, for
//! its split coordinate, the largest value of its left child and the smallest of its right
//! child.
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
//! with d); measured times in `proofs/certificates/study-engine.txt`. Output O(n m).
//!
//! ## References
//! - Friedman, J. H., Bentley, J. L. and Finkel, R. A. (1977). An algorithm for finding best
//!   matches in logarithmic expected time. ACM TOMS 3(3), 209-226.
//! - Arya, S. and Mount, D. M. (1993). Algorithms for fast vector quantization. Proc. IEEE
//!   Data Compression Conference, 381-390 (incremental distance calculation).

use rayon::prelude::*;

/// Largest number of records in a leaf (measured best at d = 10; see the study file).
pub const LEAF: usize = 16;
/// Leaves are stored column by column in runs padded to a multiple of this many records, so
/// that the distances of a block of records are computed side by side.
const LANES: usize = 4;

/// Relative widening of a subtree's bound before it may prune (see the module doc).
const GROW: f64 = 1.0 + 1.0 / (1u64 << 20) as f64;
/// Absolute widening (covers underflow of the threshold's own product).
const TINY: f64 = 9.332_636_185_032_189e-302; // 2^-1000

/// A node. A leaf holds tree positions `start..end`, its coordinates column by column from
/// `base` in `StaticKdTree::columns` (each column padded to a multiple of [`LANES`]) and
/// every node's bounding box from `2 d node` in `StaticKdTree::boxes`. An inner node splits on `dim`,
/// its left child at the next index and its right child at `right`.
#[derive(Debug, Clone)]
struct Node {
    start: usize,
    end: usize,
    /// `usize::MAX` for a leaf.
    dim: usize,
    /// Right child (inner node).
    right: usize,
    /// Start of the leaf's columns.
    base: usize,
    /// Smallest value of `dim` among the node's records.
    lo: f64,
    /// Largest value of `dim` among the left child's records.
    left_hi: f64,
    /// Smallest value of `dim` among the right child's records.
    right_lo: f64,
    /// Largest value of `dim` among the node's records.
    hi: f64,
}

/// A kd-tree over a fixed set of rows, for k-nearest queries by member records.
pub struct StaticKdTree<'a> {
    d: usize,
    z: &'a [f64],
    /// Each leaf's coordinates, column by column (see [`Node`]).
    columns: Vec<f64>,
    /// Each node's box: d lows then d highs.
    boxes: Vec<f64>,
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
        let mut nodes = Vec::with_capacity(2 * n / leaf + 1);
        if n > 0 {
            build(z, d, leaf, &mut order, 0, &mut nodes);
        }
        let mut columns = Vec::new();
        let mut boxes = Vec::with_capacity(nodes.len() * 2 * d);
        for nd in nodes.iter_mut() {
            let rows = &order[nd.start..nd.end];
            let col = |j: usize| rows.iter().map(move |&i| z[i as usize * d + j]);
            boxes.extend((0..d).map(|j| col(j).fold(f64::INFINITY, f64::min)));
            boxes.extend((0..d).map(|j| col(j).fold(f64::NEG_INFINITY, f64::max)));
            if nd.dim == usize::MAX {
                let padded = rows.len().div_ceil(LANES) * LANES;
                nd.base = columns.len();
                for j in 0..d {
                    columns.extend(col(j));
                    columns.extend(std::iter::repeat_n(0.0, padded - rows.len()));
                }
            }
        }
        StaticKdTree {
            d,
            z,
            columns,
            boxes,
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
        let d = self.d;
        scratch.reset(d, m);
        let q = &self.z[id as usize * d..(id as usize + 1) * d];
        if m > 0 && !self.nodes.is_empty() {
            self.search(0, 0.0, q, id, scratch);
        }
        out.clear();
        out.extend(scratch.best.iter().map(|b| b.1));
    }

    fn search(&self, node: usize, rd: f64, q: &[f64], qid: u32, s: &mut Scratch) {
        let nd = &self.nodes[node];
        if nd.dim == usize::MAX {
            self.scan_leaf(node, nd, q, qid, s);
            return;
        }
        let j = nd.dim;
        // Gap from q to each child's extent along j: [lo, left_hi] and [right_lo, hi].
        let gap = |a: f64, b: f64| (a - q[j]).max(q[j] - b).max(0.0);
        let old = s.off2[j];
        // Every record of a child lies at least its gap away along j; the term replaces
        // the one an ancestor set on j when larger (both are valid lower bounds).
        let term = |g: f64| (g * g).max(old);
        let (tl, tr) = (term(gap(nd.lo, nd.left_hi)), term(gap(nd.right_lo, nd.hi)));
        let (rl, rr) = (rd - old + tl, rd - old + tr);
        let children = if rl <= rr {
            [(node + 1, rl, tl), (nd.right, rr, tr)]
        } else {
            [(nd.right, rr, tr), (node + 1, rl, tl)]
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

    /// The node's bounding box: lows and highs.
    #[inline]
    fn node_box(&self, node: usize) -> (&[f64], &[f64]) {
        let d = self.d;
        self.boxes[2 * d * node..2 * d * (node + 1)].split_at(d)
    }

    /// The leaf's box bound (exact: no slack needed, see the module doc), then its records'
    /// distances, [`LANES`] at a time, each one's terms added in column order.
    #[inline]
    fn scan_leaf(&self, node: usize, nd: &Node, q: &[f64], qid: u32, s: &mut Scratch) {
        let d = self.d;
        if s.best.len() == s.m {
            let (lo, hi) = self.node_box(node);
            let mut acc = 0.0;
            for j in 0..d {
                let t = (lo[j] - q[j]).max(q[j] - hi[j]).max(0.0);
                acc += t * t;
            }
            if acc > s.best[s.m - 1].0 {
                return;
            }
        }
        s.leaves_scanned += 1;
        let len = nd.end - nd.start;
        let padded = len.div_ceil(LANES) * LANES;
        let cols = &self.columns[nd.base..nd.base + d * padded];
        s.dist.clear();
        s.dist.resize(padded, 0.0);
        leaf_distances(cols, q, &mut s.dist);
        for l in 0..len {
            let id = self.ids[nd.start + l];
            if id != qid {
                s.offer(s.dist[l], id);
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
    /// Leaves whose records were compared, over every query with this scratch (a study
    /// figure).
    pub leaves_scanned: u64,
}

impl Scratch {
    fn reset(&mut self, d: usize, m: usize) {
        self.off2.clear();
        self.off2.resize(d, 0.0);
        self.best.clear();
        self.m = m;
        self.threshold = f64::INFINITY;
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
            self.threshold = self.best[self.m - 1].0 * GROW + TINY;
        }
    }
}

/// Build the subtree over `order[..]` (global offset `offset` into the tree order).
fn build(
    z: &[f64],
    d: usize,
    leaf: usize,
    order: &mut [u32],
    offset: usize,
    nodes: &mut Vec<Node>,
) {
    let len = order.len();
    let at = nodes.len();
    nodes.push(Node {
        start: offset,
        end: offset + len,
        dim: usize::MAX,
        right: 0,
        base: 0,
        lo: 0.0,
        left_hi: 0.0,
        right_lo: 0.0,
        hi: 0.0,
    });
    if len <= leaf {
        return;
    }
    let value = |i: u32, j: usize| z[i as usize * d + j];
    // Widest coordinate of the bounding box, lowest index on ties.
    let (mut dim, mut width, mut ends) = (0, f64::NEG_INFINITY, (0.0, 0.0));
    for j in 0..d {
        let (lo, hi) = order
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &i| {
                let v = value(i, j);
                (l.min(v), h.max(v))
            });
        if hi - lo > width {
            (dim, width, ends) = (j, hi - lo, (lo, hi));
        }
    }
    if width <= 0.0 {
        return; // all rows equal: one leaf, however large
    }
    let half = len / 2;
    // By (value, id) so that the split is deterministic with ties.
    order.select_nth_unstable_by(half, |&a, &b| {
        value(a, dim).total_cmp(&value(b, dim)).then(a.cmp(&b))
    });
    let (lo, hi) = order.split_at_mut(half);
    let left_hi = lo
        .iter()
        .map(|&i| value(i, dim))
        .fold(f64::NEG_INFINITY, f64::max);
    let right_lo = hi
        .iter()
        .map(|&i| value(i, dim))
        .fold(f64::INFINITY, f64::min);
    build(z, d, leaf, lo, offset, nodes);
    let right = nodes.len();
    build(z, d, leaf, hi, offset + half, nodes);
    let nd = &mut nodes[at];
    (nd.dim, nd.right) = (dim, right);
    (nd.lo, nd.left_hi, nd.right_lo, nd.hi) = (ends.0, left_hi, right_lo, ends.1);
}

/// Queries per chunk between two calls of the stop rule and progress report.
pub const CHUNK: usize = 16_384;
/// Queries per parallel task inside a chunk.
const TASK: usize = 256;

/// The `m` nearest other records of every one of the `n = z.len() / d` rows of `z`, by
/// (computed squared distance, id), nearest first: record i's list at `[i m, (i + 1) m)`
/// (m must be below n). `stop` is asked before each chunk of [`CHUNK`] queries (`None`
/// once it says stop), `progress` told the number of records done after each.
pub fn all_nearest(
    z: &[f64],
    d: usize,
    m: usize,
    mut stop: impl FnMut() -> bool,
    mut progress: impl FnMut(usize),
) -> Option<Vec<u32>> {
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
        let found: Vec<Vec<u32>> = (0..chunk.len().div_ceil(TASK))
            .into_par_iter()
            .map_init(
                || (Scratch::default(), Vec::new()),
                |(scratch, one), t| {
                    let from = first + t * TASK;
                    let to = (from + TASK).min(first + chunk.len());
                    let mut lists = Vec::with_capacity((to - from) * m);
                    for &id in &chunk[from - first..to - first] {
                        tree.nearest_of(id, m, scratch, one);
                        lists.extend_from_slice(one);
                    }
                    lists
                },
            )
            .collect();
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
