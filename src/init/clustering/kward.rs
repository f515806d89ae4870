//! # k-Ward (Ward's agglomerative clustering constrained to groups of at least k)
//!
//! Algorithm 2 of Domingo-Ferrer & Mateo-Sanz (2002), on a set of m >= 2k records:
//!
//! 1. Take the two records r, s farthest apart (the "extreme" records). Form a group with r
//!    and its k - 1 nearest records, then a group with s and its k - 1 nearest records among
//!    those not yet grouped.
//! 2. Every other record is a group of its own.
//! 3. Ward's method: repeatedly merge the two groups whose merger raises the within-group SSE
//!    least, Delta(A, B) = |A| |B| / (|A| + |B|) * ||c_A - c_B||^2, never merging two groups
//!    that both have k or more records; stop when every group has at least k records.
//! 4. Apply the algorithm recursively to every group of 2k or more records.
//!
//! A set of fewer than 2k records is one group. The recursion terminates because the two
//! groups of step 1 both have k records and are never merged, so every recursive call splits
//! its set into at least two groups.
//!
//! ## Readings chosen where the paper leaves a choice
//! - "The two extreme records" are a farthest pair (the diameter) of the current set; of
//!   the two, the one with the lower record index forms its group first; ties between pairs
//!   go to the lexicographically lowest (index, index) pair.
//! - Ties in Ward's criterion go to the pair of groups with the lowest identifiers; group
//!   identifiers are: the group of step 1 around the lower extreme 0, the other 1, then the
//!   singletons in increasing record index; a merged group keeps the lower identifier.
//!   `tests/construct/heuristics_5b.rs::kward_hand_case` pins the extreme groups and the rule that two
//!   groups of >= k are never merged; `kward_recursion_leaves_no_group_of_2k` the recursion.
//!
//! ## Complexity
//! Every merge involves a group of fewer than k records, so each of those keeps its best
//! partner (a Lance-Williams-free scan of all groups, O(G d) for G groups); a merge updates
//! every small group against the merged one in O(G d) and rescans only those whose best
//! partner disappeared. Typical O(m^2 d) time per level (O(m^3 d) worst case), plus the
//! O(m^2 d) farthest-pair search; O(m d) memory, so there is no size limit beyond time (EIA,
//! n = 4092, runs in well under a second).
//!
//! ## References
//! Domingo-Ferrer & Mateo-Sanz (2002), "Practical data-oriented microaggregation for
//! statistical disclosure control", IEEE TKDE 14(1), pp. 189-201 (the k-Ward algorithm).
//! Ward (1963), JASA 58. The paper is not in `../shared/papers`: this follows its
//! published description as summarised above.

use crate::data::Instance;
use crate::init::GroupsMethod;
use crate::method::MethodInfo;
use crate::params::NoParams;
use crate::partition::sq_dist;

/// The `kward` initializer.
pub const METHOD: GroupsMethod = GroupsMethod {
    name: "kward",
    groups: kward_groups,
};

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        METHOD.name,
        "k-Ward: two k-groups at the extreme records, Ward merges never joining two groups of >= k, recursion on groups of >= 2k",
        "Domingo-Ferrer & Mateo-Sanz 2002",
        |_: NoParams| METHOD,
    )
    .deterministic()
}

/// The groups of `kward` (before the feasibility check).
pub(crate) fn kward_groups(inst: &Instance, k: usize) -> Vec<Vec<usize>> {
    let mut done = Vec::new();
    let mut todo = vec![(0..inst.n).collect::<Vec<usize>>()];
    while let Some(set) = todo.pop() {
        if set.len() < 2 * k {
            done.push(set);
            continue;
        }
        for g in kward_level(inst, &set, k) {
            if g.len() >= 2 * k {
                todo.push(g);
            } else {
                done.push(g);
            }
        }
    }
    done.iter_mut().for_each(|g| g.sort_unstable());
    done.sort();
    done
}

/// A farthest pair (lowest index pair among ties) of `ids` (sorted ascending, >= 2 records).
pub(crate) fn farthest_pair(inst: &Instance, ids: &[usize]) -> (usize, usize) {
    let mut best = (f64::NEG_INFINITY, ids[0], ids[1]);
    for (a, &i) in ids.iter().enumerate() {
        let xi = inst.row(i);
        for &j in &ids[a + 1..] {
            let dd = sq_dist(xi, inst.row(j));
            if dd > best.0 {
                best = (dd, i, j);
            }
        }
    }
    (best.1, best.2)
}

/// The `k` records of `ids` nearest to record `r` (r itself included), ties to the lowest id.
fn nearest_k(inst: &Instance, ids: &[usize], r: usize, k: usize) -> Vec<usize> {
    let mut by: Vec<(f64, usize)> = ids
        .iter()
        .map(|&i| (sq_dist(inst.row(i), inst.row(r)), i))
        .collect();
    by.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    by.truncate(k);
    by.into_iter().map(|(_, i)| i).collect()
}

struct Group {
    members: Vec<usize>,
    centroid: Vec<f64>,
}

fn ward_delta(a: &Group, b: &Group) -> f64 {
    let (na, nb) = (a.members.len() as f64, b.members.len() as f64);
    na * nb / (na + nb) * sq_dist(&a.centroid, &b.centroid)
}

/// Lexicographic (delta, partner) comparison: true when (d1, p1) is better than (d2, p2).
fn better(d1: f64, p1: usize, d2: f64, p2: usize) -> bool {
    d1.total_cmp(&d2).then(p1.cmp(&p2)).is_lt()
}

/// One level of k-Ward on `set` (at least 2k records): steps 1-3.
fn kward_level(inst: &Instance, set: &[usize], k: usize) -> Vec<Vec<usize>> {
    let mut ids = set.to_vec();
    ids.sort_unstable();
    let (r, s) = farthest_pair(inst, &ids);
    let g0 = nearest_k(inst, &ids, r, k);
    let rest: Vec<usize> = ids.iter().copied().filter(|i| !g0.contains(i)).collect();
    // If s was among r's nearest (ties only), the second group forms around the remaining
    // record farthest from r, the natural stand-in for the second extreme.
    let s = if g0.contains(&s) {
        let mut far = (f64::NEG_INFINITY, rest[0]);
        for &i in &rest {
            let dd = sq_dist(inst.row(i), inst.row(r));
            if dd > far.0 {
                far = (dd, i);
            }
        }
        far.1
    } else {
        s
    };
    let g1 = nearest_k(inst, &rest, s, k);
    let d = inst.d;
    let make = |members: Vec<usize>| {
        let mut c = vec![0.0; d];
        for &i in &members {
            c.iter_mut().zip(inst.row(i)).for_each(|(a, v)| *a += v);
        }
        let inv = 1.0 / members.len() as f64;
        c.iter_mut().for_each(|a| *a *= inv);
        Group {
            members,
            centroid: c,
        }
    };
    let mut groups: Vec<Option<Group>> = vec![Some(make(g0.clone())), Some(make(g1.clone()))];
    for &i in &rest {
        if !g1.contains(&i) {
            groups.push(Some(make(vec![i])));
        }
    }
    let small = |g: &Option<Group>| g.as_ref().is_some_and(|g| g.members.len() < k);
    // best[s] = (delta, partner) for every small group s.
    let mut best: Vec<(f64, usize)> = vec![(f64::INFINITY, usize::MAX); groups.len()];
    let scan = |groups: &[Option<Group>], s: usize| -> (f64, usize) {
        let gs = groups[s].as_ref().expect("active");
        let mut b = (f64::INFINITY, usize::MAX);
        for (t, gt) in groups.iter().enumerate() {
            if let Some(gt) = gt {
                if t != s {
                    let dl = ward_delta(gs, gt);
                    if better(dl, t, b.0, b.1) {
                        b = (dl, t);
                    }
                }
            }
        }
        b
    };
    for s in 0..groups.len() {
        if small(&groups[s]) {
            best[s] = scan(&groups, s);
        }
    }
    loop {
        // The small group whose best merger is cheapest; ties to the lowest (low id, high id).
        let mut pick: Option<(f64, usize, usize)> = None;
        for s in 0..groups.len() {
            if small(&groups[s]) {
                let (dl, t) = best[s];
                let (lo, hi) = (s.min(t), s.max(t));
                let take = match pick {
                    None => true,
                    Some((pd, plo, phi)) => {
                        dl.total_cmp(&pd).then((lo, hi).cmp(&(plo, phi))).is_lt()
                    }
                };
                if take {
                    pick = Some((dl, lo, hi));
                }
            }
        }
        let Some((_, a, b)) = pick else { break };
        let gb = groups[b].take().expect("active");
        {
            let ga = groups[a].as_mut().expect("active");
            let (na, nb) = (ga.members.len() as f64, gb.members.len() as f64);
            let w = nb / (na + nb);
            ga.centroid
                .iter_mut()
                .zip(&gb.centroid)
                .for_each(|(ca, cb)| *ca += w * (cb - *ca));
            ga.members.extend(gb.members);
        }
        for s in 0..groups.len() {
            if s == a || !small(&groups[s]) {
                continue;
            }
            if best[s].1 == a || best[s].1 == b {
                best[s] = scan(&groups, s);
            } else {
                let dl = ward_delta(
                    groups[s].as_ref().expect("active"),
                    groups[a].as_ref().expect("active"),
                );
                if better(dl, a, best[s].0, best[s].1) {
                    best[s] = (dl, a);
                }
            }
        }
        if small(&groups[a]) {
            best[a] = scan(&groups, a);
        }
    }
    groups.into_iter().flatten().map(|g| g.members).collect()
}
