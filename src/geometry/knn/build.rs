//! # Building the static all-kNN tree
//!
//! Median splits on the widest coordinate of a node's bounding box, the two halves of a
//! large node built in parallel (the same tree as one thread builds); see [`super`].
//!
//! ## Complexity
//! O(n log n d) time, O(n / LEAF) nodes.
//!
//! ## References
//! - Friedman, J. H., Bentley, J. L. and Finkel, R. A. (1977). ACM TOMS 3(3), 209-226.

use super::{Leaf, Node, LEAF_MARK};

/// How a node's records are split: the coordinate, the node's extent along it, the
/// left child's largest and the right child's smallest value, and the left child's size
/// (`order` is left partitioned by (value, id) around that position). `None` when every
/// row is equal (one leaf, however large).
struct Split {
    dim: usize,
    ends: (f64, f64),
    left_hi: f64,
    right_lo: f64,
    half: usize,
}

fn split(z: &[f64], d: usize, order: &mut [u32]) -> Option<Split> {
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
        return None;
    }
    let half = order.len() / 2;
    // By (value, id) so that the split is deterministic with ties.
    order.select_nth_unstable_by(half, |&a, &b| {
        value(a, dim).total_cmp(&value(b, dim)).then(a.cmp(&b))
    });
    let (lo, hi) = order.split_at(half);
    let left_hi = lo
        .iter()
        .map(|&i| value(i, dim))
        .fold(f64::NEG_INFINITY, f64::max);
    let right_lo = hi
        .iter()
        .map(|&i| value(i, dim))
        .fold(f64::INFINITY, f64::min);
    Some(Split {
        dim,
        ends,
        left_hi,
        right_lo,
        half,
    })
}

/// The inner node of a split whose right child is at `right`.
fn inner(sp: &Split, right: usize) -> Node {
    Node {
        lo: sp.ends.0,
        left_hi: sp.left_hi,
        right_lo: sp.right_lo,
        hi: sp.ends.1,
        dim: sp.dim as u32,
        right: right as u32,
    }
}

/// A leaf node over tree positions `offset..offset + len`, appended.
fn push_leaf(offset: usize, len: usize, nodes: &mut Vec<Node>, leaves: &mut Vec<Leaf>) {
    nodes.push(Node {
        lo: 0.0,
        left_hi: 0.0,
        right_lo: 0.0,
        hi: 0.0,
        dim: LEAF_MARK,
        right: leaves.len() as u32,
    });
    leaves.push(Leaf {
        start: offset as u32,
        len: len as u32,
        base: 0,
    });
}

/// Below this many records a subtree is built by one thread.
pub(super) const PARALLEL_BUILD: usize = 1 << 15;
/// Leaves per task when the leaf blocks are filled in parallel (a tree of fewer leaves is
/// filled on the calling thread).
pub(super) const FILL_TASK: usize = 256;

/// The subtree over `order[..]` (global offset `offset` into the tree order) in preorder,
/// node and leaf indices counted from 0: its two halves built in parallel while large, the
/// same nodes in the same order as [`build`] (each half's nodes are shifted into place).
pub(super) fn build_parallel(
    z: &[f64],
    d: usize,
    leaf: usize,
    order: &mut [u32],
    offset: usize,
) -> (Vec<Node>, Vec<Leaf>) {
    let (mut nodes, mut leaves) = (Vec::new(), Vec::new());
    if order.len() <= PARALLEL_BUILD.max(leaf) {
        build(z, d, leaf, order, offset, &mut nodes, &mut leaves);
        return (nodes, leaves);
    }
    let Some(sp) = split(z, d, order) else {
        push_leaf(offset, order.len(), &mut nodes, &mut leaves);
        return (nodes, leaves);
    };
    let (lo, hi) = order.split_at_mut(sp.half);
    let ((ln, ll), (rn, rl)) = crate::parallel::install(|| {
        rayon::join(
            || build_parallel(z, d, leaf, lo, offset),
            || build_parallel(z, d, leaf, hi, offset + sp.half),
        )
    });
    nodes.push(inner(&sp, 1 + ln.len()));
    for (sub, sub_leaves) in [(ln, ll), (rn, rl)] {
        let (node_shift, leaf_shift) = (nodes.len() as u32, leaves.len() as u32);
        nodes.extend(sub.into_iter().map(|mut nd| {
            nd.right += if nd.dim == LEAF_MARK {
                leaf_shift
            } else {
                node_shift
            };
            nd
        }));
        leaves.extend(sub_leaves);
    }
    (nodes, leaves)
}

/// Build the subtree over `order[..]` (global offset `offset` into the tree order),
/// appending its nodes in preorder.
pub(super) fn build(
    z: &[f64],
    d: usize,
    leaf: usize,
    order: &mut [u32],
    offset: usize,
    nodes: &mut Vec<Node>,
    leaves: &mut Vec<Leaf>,
) {
    let len = order.len();
    let sp = if len <= leaf {
        None
    } else {
        split(z, d, order)
    };
    let Some(sp) = sp else {
        return push_leaf(offset, len, nodes, leaves);
    };
    let at = nodes.len();
    nodes.push(inner(&sp, 0));
    let (lo, hi) = order.split_at_mut(sp.half);
    build(z, d, leaf, lo, offset, nodes, leaves);
    nodes[at].right = nodes.len() as u32;
    build(z, d, leaf, hi, offset + sp.half, nodes, leaves);
}
