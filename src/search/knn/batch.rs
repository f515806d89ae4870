//! # Packets of queries
//!
//! Up to [`PACKET`] records consecutive in tree order (so close in space) are queried
//! together: one descent of the tree serves them all. Each record of the packet keeps its
//! own running bound and per-coordinate terms, computed with exactly the operations of the
//! single query ([`super::StaticKdTree::nearest_of`]), and its own m-th distance; a child
//! is entered with the records whose own bound allows it (a bit mask) and skipped when no
//! record is left. So every record visits exactly the subtrees its single query could
//! visit, but a node shared by several records of the packet is loaded and entered once.
//! The child preferred by most active records is entered first.
//!
//! Why: in d = 10 a single query spends most of its time walking inner nodes and waiting
//! for them to arrive from memory (the 4-NN ball of a record meets hundreds of leaves), and
//! nearby records walk nearly the same nodes. A bound for the packet as a whole (the gap
//! from the packet's box) was tried first: it prunes far too little in d = 10 (4 065
//! leaves visited per leaf-batch against 275 scanned per single query at n = 1e5).
//!
//! **Exactness** (proofs/P06, "The static all-kNN tree"): per record the terms, the running
//! bound, the skip test and the leaf check are the single query's (P06 (b)-(c)); a record
//! is only ever left out of a subtree its own bound excludes (its m-th distance only
//! shrinks and its bound only grows below a node, so a record excluded at a node stays
//! excluded below it). Visiting order does not change what a list holds: the m smallest
//! (computed distance, id), ties included, the brute force's.
//!
//! ## Complexity
//! The nodes visited are the union of the packet's single-query visits, each loaded once;
//! per node O(PACKET) arithmetic. Distance work per record as in the single query.
//! Measured in `proofs/certificates/study-engine.txt` (section "24-nn").

use super::{leaf_distances, offer, Node, StaticKdTree, GROW, LANES, TINY};

/// Records per packet (at most 32: the active set is a bit mask).
pub const PACKET: usize = 16;

/// Per-thread working memory of a packet.
#[derive(Debug, Default, Clone)]
pub struct PacketScratch {
    /// The packet's records (ids) and their coordinates, column by column
    /// (`q[j PACKET + a]`).
    ids: Vec<u32>,
    q: Vec<f64>,
    /// Per coordinate and record, the squared gap in the record's bound
    /// (`off2[j PACKET + a]`).
    off2: Vec<f64>,
    /// Per record its best (distance, id) so far, ascending.
    best: Vec<Vec<(f64, u32)>>,
    /// Per record, a subtree whose bound exceeds this holds no better record for it.
    threshold: [f64; PACKET],
    m: usize,
    /// The distances of the leaf being scanned.
    dist: Vec<f64>,
    /// One record's coordinates (the leaf kernel's query).
    row: Vec<f64>,
    /// Nodes entered by packets (a study figure).
    pub nodes_entered: u64,
    /// (record, leaf) pairs whose distances were computed (a study figure: the single
    /// queries' leaves scanned).
    pub leaves_scanned: u64,
}

impl StaticKdTree<'_> {
    /// The `m` nearest other records of each of `ids` (at most [`PACKET`] records, best
    /// consecutive in tree order), by (computed squared distance, id), nearest first: the
    /// lists of [`nearest_of`](Self::nearest_of), one after the other in the order of
    /// `ids`, appended to `out` (each shorter when the tree holds at most m records).
    pub fn nearest_of_packet(
        &self,
        ids: &[u32],
        m: usize,
        s: &mut PacketScratch,
        out: &mut Vec<u32>,
    ) {
        assert!(ids.len() <= PACKET, "at most {PACKET} records in a packet");
        let d = self.d;
        let p = ids.len();
        s.m = m;
        s.ids.clear();
        s.ids.extend_from_slice(ids);
        s.q.clear();
        s.q.resize(d * PACKET, 0.0);
        for (a, &id) in ids.iter().enumerate() {
            for j in 0..d {
                s.q[j * PACKET + a] = self.z[id as usize * d + j];
            }
        }
        s.off2.clear();
        s.off2.resize(d * PACKET, 0.0);
        s.best.resize_with(PACKET, Vec::new);
        s.best.iter_mut().for_each(Vec::clear);
        s.threshold = [f64::INFINITY; PACKET];
        if m > 0 && p > 0 && !self.nodes.is_empty() {
            let mask = if p == 32 { u32::MAX } else { (1u32 << p) - 1 };
            self.search_packet(0, &[0.0; PACKET], mask, s);
        }
        for best in &s.best[..p] {
            out.extend(best.iter().map(|b| b.1));
        }
    }

    fn search_packet(&self, node: usize, rd: &[f64; PACKET], mask: u32, s: &mut PacketScratch) {
        s.nodes_entered += 1;
        let nd = &self.nodes[node];
        if nd.dim == usize::MAX {
            self.scan_leaf_packet(node, nd, mask, s);
            return;
        }
        let j = nd.dim;
        let (q, off2) = (
            &s.q[j * PACKET..(j + 1) * PACKET],
            &mut s.off2[j * PACKET..(j + 1) * PACKET],
        );
        let mut old = [0.0; PACKET];
        old.copy_from_slice(off2);
        let (mut tl, mut tr, mut rl, mut rr) =
            ([0.0; PACKET], [0.0; PACKET], [0.0; PACKET], [0.0; PACKET]);
        // The single query's terms, record by record (P06 (b)).
        for a in 0..PACKET {
            let gap = |lo: f64, hi: f64| (lo - q[a]).max(q[a] - hi).max(0.0);
            tl[a] = (gap(nd.lo, nd.left_hi) * gap(nd.lo, nd.left_hi)).max(old[a]);
            tr[a] = (gap(nd.right_lo, nd.hi) * gap(nd.right_lo, nd.hi)).max(old[a]);
            rl[a] = rd[a] - old[a] + tl[a];
            rr[a] = rd[a] - old[a] + tr[a];
        }
        let mut votes = 0i32;
        for a in bits(mask) {
            votes += if rl[a] <= rr[a] { 1 } else { -1 };
        }
        let children = if votes >= 0 {
            [(node + 1, &rl, &tl), (nd.right, &rr, &tr)]
        } else {
            [(nd.right, &rr, &tr), (node + 1, &rl, &tl)]
        };
        for (child, child_rd, t) in children {
            // Thresholds may have shrunk in the first child: asked again here.
            let mut inner = 0u32;
            for a in bits(mask) {
                if child_rd[a] <= s.threshold[a] {
                    inner |= 1 << a;
                }
            }
            if inner == 0 {
                continue;
            }
            s.off2[j * PACKET..(j + 1) * PACKET].copy_from_slice(t);
            self.search_packet(child, child_rd, inner, s);
        }
        s.off2[j * PACKET..(j + 1) * PACKET].copy_from_slice(&old);
    }

    /// For each record of `mask`: the single query's leaf check, then the leaf's records.
    fn scan_leaf_packet(&self, node: usize, nd: &Node, mask: u32, s: &mut PacketScratch) {
        let d = self.d;
        let (lo, hi) = self.node_box(node);
        let len = nd.end - nd.start;
        let padded = len.div_ceil(LANES) * LANES;
        let cols = &self.columns[nd.base..nd.base + d * padded];
        s.row.resize(d, 0.0);
        for a in bits(mask) {
            for j in 0..d {
                s.row[j] = s.q[j * PACKET + a];
            }
            let q = &s.row[..];
            let best = &mut s.best[a];
            // The single query's leaf check (exact: no slack needed, P06 (b)).
            if best.len() == s.m {
                let mut acc = 0.0;
                for j in 0..d {
                    let t = (lo[j] - q[j]).max(q[j] - hi[j]).max(0.0);
                    acc += t * t;
                }
                if acc > best[s.m - 1].0 {
                    continue;
                }
            }
            s.leaves_scanned += 1;
            s.dist.clear();
            s.dist.resize(padded, 0.0);
            leaf_distances(cols, q, &mut s.dist);
            let qid = s.ids[a];
            for l in 0..len {
                let id = self.ids[nd.start + l];
                if id != qid && offer(best, s.m, s.dist[l], id) {
                    s.threshold[a] = best[s.m - 1].0 * GROW + TINY;
                }
            }
        }
    }
}

/// The positions of the set bits of `mask`, lowest first.
fn bits(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let a = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            a
        })
    })
}
