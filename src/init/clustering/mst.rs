//! # MST partitioning (minimum spanning tree, longest-edge cuts)
//!
//! Laszlo & Mukherjee (2005): build the Euclidean minimum spanning tree of the records; visit
//! its edges from the longest to the shortest and remove an edge when both trees it would
//! leave have at least k records (component sizes only shrink, so one pass in that order
//! reaches the state where no further edge can be removed); the trees left are the groups.
//! Trees of 2k or more records are then partitioned by a fixed-size method, as the paper
//! does; we use MDAV (`crate::init::lineage::split_large`), the fixed-size method of this workbench that
//! reproduces the published values.
//!
//! The tree is held in a `petgraph` `StableUnGraph` (edge removal keeps indices); the
//! removability test is a depth-first search from each endpoint that stops after k
//! records. The tree itself is computed with Prim's dense O(n^2 d) algorithm (the complete
//! graph has n(n-1)/2 edges, 8.4 million on EIA, too many to materialise for petgraph's
//! Kruskal); `tests/construct/heuristics_5b.rs` checks its weight against petgraph's
//! `min_spanning_tree` on complete graphs.
//!
//! ## Readings chosen
//! - Edge lengths are Euclidean distances (ordering by squared distance is the same).
//!   Ties between equally long edges go to the edge with the lower (smaller endpoint,
//!   larger endpoint) pair; Prim starts at record 0 and adds the lowest-index record among
//!   equally near ones.
//! - The fixed-size method for trees of >= 2k records is MDAV (the paper leaves the choice
//!   to the user). Pinned by `tests/construct/heuristics_5b.rs::mst_hand_case`.
//!
//! ## Complexity
//! O(n^2 d) time and O(n d) memory for the tree, O(n k) for the cuts (each test stops after
//! k records per side), O(m^2 d / k) for MDAV on each large tree of m records.
//!
//! ## References
//! Laszlo & Mukherjee (2005), "Minimum spanning tree partitioning algorithm for
//! microaggregation", IEEE TKDE 17(7), pp. 902-911. The paper is not in `../shared/papers`:
//! this follows its published description.

use crate::data::Instance;
use crate::init::GroupsMethod;
use crate::method::MethodInfo;
use crate::params::NoParams;
use crate::partition::sq_dist;
use petgraph::stable_graph::{NodeIndex, StableUnGraph};
use petgraph::visit::{Dfs, Visitable};

/// The `mst` initializer.
pub const METHOD: GroupsMethod = GroupsMethod {
    name: "mst",
    groups: mst_groups,
};

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        METHOD.name,
        "MST partitioning: remove the longest minimum-spanning-tree edges that leave trees of >= k, MDAV on trees of >= 2k",
        "Laszlo & Mukherjee 2005",
        |_: NoParams| METHOD,
    )
    .deterministic()
}

/// Euclidean minimum spanning tree of all records by Prim's dense algorithm: n - 1 edges
/// (parent, child, length), in the order the children joined the tree.
pub fn prim_mst(inst: &Instance) -> Vec<(usize, usize, f64)> {
    let n = inst.n;
    let mut in_tree = vec![false; n];
    let mut best = vec![f64::INFINITY; n];
    let mut parent = vec![0usize; n];
    let mut edges = Vec::with_capacity(n.saturating_sub(1));
    let mut v = 0;
    in_tree[0] = true;
    for _ in 1..n {
        let xv = inst.row(v);
        let mut next = usize::MAX;
        let mut next_d = f64::INFINITY;
        for u in 0..n {
            if in_tree[u] {
                continue;
            }
            let dd = sq_dist(xv, inst.row(u));
            if dd < best[u] {
                best[u] = dd;
                parent[u] = v;
            }
            if next == usize::MAX || best[u] < next_d {
                next = u;
                next_d = best[u];
            }
        }
        in_tree[next] = true;
        edges.push((parent[next], next, next_d.sqrt()));
        v = next;
    }
    edges
}

type TreeDfs = Dfs<NodeIndex, <StableUnGraph<(), f64> as Visitable>::Map>;

/// Number of records reachable from `start` in `g`, counting at most `cap`.
fn reach_at_most(g: &StableUnGraph<(), f64>, dfs: &mut TreeDfs, start: usize, cap: usize) -> usize {
    dfs.reset(g);
    dfs.move_to(NodeIndex::new(start));
    let mut count = 0;
    while count < cap && dfs.next(g).is_some() {
        count += 1;
    }
    count
}

/// The MST groups before the large ones are split: the trees left once every removable
/// edge (both sides >= k) has been removed, longest first. Each group sorted ascending,
/// groups in order of their lowest record.
pub(crate) fn mst_trees(inst: &Instance, k: usize) -> Vec<Vec<usize>> {
    let n = inst.n;
    let mut edges = prim_mst(inst);
    edges.sort_by(|a, b| {
        b.2.total_cmp(&a.2)
            .then((a.0.min(a.1), a.0.max(a.1)).cmp(&(b.0.min(b.1), b.0.max(b.1))))
    });
    let mut g: StableUnGraph<(), f64> = StableUnGraph::with_capacity(n, n);
    for _ in 0..n {
        g.add_node(());
    }
    let ids: Vec<_> = edges
        .iter()
        .map(|&(a, b, w)| g.add_edge(NodeIndex::new(a), NodeIndex::new(b), w))
        .collect();
    let mut dfs = Dfs::empty(&g);
    for (e, &(a, b, w)) in ids.into_iter().zip(&edges) {
        g.remove_edge(e);
        let ok = reach_at_most(&g, &mut dfs, a, k) >= k && reach_at_most(&g, &mut dfs, b, k) >= k;
        if !ok {
            g.add_edge(NodeIndex::new(a), NodeIndex::new(b), w);
        }
    }
    let mut seen = vec![false; n];
    let mut groups = Vec::new();
    for s in 0..n {
        if seen[s] {
            continue;
        }
        let mut dfs = Dfs::new(&g, NodeIndex::new(s));
        let mut comp = Vec::new();
        while let Some(x) = dfs.next(&g) {
            seen[x.index()] = true;
            comp.push(x.index());
        }
        comp.sort_unstable();
        groups.push(comp);
    }
    groups
}

/// The groups of `mst` (before the feasibility check).
pub(crate) fn mst_groups(inst: &Instance, k: usize) -> Vec<Vec<usize>> {
    crate::init::lineage::split_large::split_large(inst, mst_trees(inst, k), k)
}
