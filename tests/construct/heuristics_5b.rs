//! Sanity tests for `kward`, `mst`, `muapprox`, `ga`, `fcm` and `pcl` (no published table to
//! match): hand-worked small cases that pin each module's documented reading, group-size
//! promises, an independent check of the spanning tree against petgraph's Kruskal, seed
//! reproducibility of the randomised methods, and, on the CASC files, feasibility with an IL
//! between the attribute-sum lower bound and twice MDAV's.
//!
//! The full table on Tarragona, Census and EIA for k = 3, 5, 10 is the ignored test
//! `casc_table_eia` (about 40 s in release mode):
//! `cargo test --release --test construct -- --ignored heuristics_5b:: --nocapture`.

use crate::common;
use common::{assert_sizes_k_to_2k_minus_1, attribute_sum_lower_bound, casc, from_rows, groups};
use common::{group_sizes, line, run_method, synthetic};
use microagg::data::Instance;
use microagg::partition::sq_dist;

const METHODS: [&str; 6] = ["kward", "mst", "muapprox", "ga", "fcm", "pcl"];

fn sorted(mut gs: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    gs.iter_mut().for_each(|g| g.sort_unstable());
    gs.sort();
    gs
}

fn run_with(
    inst: &Instance,
    method: &str,
    params: &[&str],
    k: usize,
    seed: u64,
) -> (f64, Vec<usize>) {
    common::run_with_params(inst, method, params, k, seed)
        .unwrap_or_else(|e| panic!("{method}: {e}"))
}

/// Six unit vectors (+-e1, +-e2, +-e3) around a centre (record 0): a star whose leaves are
/// all nearer the centre (1) than to each other (sqrt 2).
fn star() -> Instance {
    let mut rows = vec![vec![0.0, 0.0, 0.0]];
    for j in 0..3 {
        for s in [1.0, -1.0] {
            let mut r = vec![0.0; 3];
            r[j] = s;
            rows.push(r);
        }
    }
    from_rows(&rows)
}

#[test]
fn kward_hand_case() {
    // Values 0,1,5,6,7,20,21 (ids 0..6), k = 2. Extremes: ids 0 and 6; groups {0,1}, {6,5}.
    // Singletons 5, 6, 7 (ids 2, 3, 4): Ward deltas 0.5 for (2,3) and (3,4) (equal up to the
    // rounding of z-scores); either merger is followed by the third singleton joining it
    // (delta 1.5, against 13.5 and 121.5 for the extreme groups).
    let inst = line(&[0.0, 1.0, 5.0, 6.0, 7.0, 20.0, 21.0]);
    let (_, labels) = run_method(&inst, "kward", 2, 0);
    assert_eq!(groups(&labels), vec![vec![0, 1], vec![2, 3, 4], vec![5, 6]]);
    // Two groups that both reach k are never merged, even when nearest: k = 2 on two tight
    // pairs and a far pair, the tight pairs stay apart.
    let inst = line(&[0.0, 0.1, 0.3, 0.4, 50.0, 50.1]);
    let (_, labels) = run_method(&inst, "kward", 2, 0);
    assert_eq!(groups(&labels), vec![vec![0, 1], vec![2, 3], vec![4, 5]]);
}

#[test]
fn kward_recursion_leaves_no_group_of_2k() {
    let inst = synthetic("gauss:n=503,d=5,clusters=7,seed=3");
    for k in [2, 3, 5, 10] {
        let (_, labels) = run_method(&inst, "kward", k, 0);
        assert_sizes_k_to_2k_minus_1(&labels, k, &format!("k={k}"));
    }
}

#[test]
fn mst_hand_case() {
    // Values 0,1,2,10,11,12,30,31, k = 2: the 18 edge goes first (sides 6 and 2), then the 8
    // edge (3 and 3); no unit edge leaves two sides of >= 2.
    let inst = line(&[0.0, 1.0, 2.0, 10.0, 11.0, 12.0, 30.0, 31.0]);
    let (_, labels) = run_method(&inst, "mst", 2, 0);
    assert_eq!(
        groups(&labels),
        vec![vec![0, 1, 2], vec![3, 4, 5], vec![6, 7]]
    );
    // A star of 7 records and k = 3: no edge can go (every leaf side has 1 record), so the
    // single tree of 7 >= 2k records is split by MDAV: the result is MDAV's.
    let inst = star();
    let (_, mst) = run_method(&inst, "mst", 3, 0);
    let (_, mdav) = run_method(&inst, "mdav", 3, 0);
    assert_eq!(groups(&mst), groups(&mdav));
}

#[test]
fn prim_tree_weight_matches_petgraph_kruskal() {
    use petgraph::algo::min_spanning_tree;
    use petgraph::data::FromElements;
    use petgraph::graph::UnGraph;
    for seed in 1..=5 {
        let inst = synthetic(&format!("gauss:n=60,d=3,clusters=4,seed={seed}"));
        let ours: f64 = microagg::init::clustering::mst::prim_mst(&inst)
            .iter()
            .map(|e| e.2)
            .sum();
        assert_eq!(
            microagg::init::clustering::mst::prim_mst(&inst).len(),
            inst.n - 1
        );
        let mut g: UnGraph<(), f64> = UnGraph::new_undirected();
        let nodes: Vec<_> = (0..inst.n).map(|_| g.add_node(())).collect();
        for i in 0..inst.n {
            for j in i + 1..inst.n {
                g.add_edge(nodes[i], nodes[j], sq_dist(inst.row(i), inst.row(j)).sqrt());
            }
        }
        let tree: UnGraph<(), f64> = UnGraph::from_elements(min_spanning_tree(&g));
        let theirs: f64 = tree.edge_weights().sum();
        assert_eq!(tree.edge_count(), inst.n - 1);
        assert!(
            (ours - theirs).abs() <= 1e-9 * theirs,
            "seed {seed}: {ours} vs {theirs}"
        );
    }
}

#[test]
fn muapprox_hand_case() {
    // Nearest neighbours on 0,1,2,10,11,12,30,31 (k = 2) form the trees {0,1,2}, {3,4,5},
    // {6,7}, all within max(2k-1, 3k-5) = 3: they are the groups.
    let inst = line(&[0.0, 1.0, 2.0, 10.0, 11.0, 12.0, 30.0, 31.0]);
    let edges = microagg::init::clustering::muapprox::forest(&inst, 2);
    assert_eq!(edges, vec![(0, 1), (1, 2), (3, 4), (4, 5), (6, 7)]);
    let (_, labels) = run_method(&inst, "muapprox", 2, 0);
    assert_eq!(
        groups(&labels),
        vec![vec![0, 1, 2], vec![3, 4, 5], vec![6, 7]]
    );
    // The star (k = 3, 7 > max(5, 4) records, no removable edge): v is the centre, the six
    // one-record branches fill {1,2,3} and {4,5,6}; the centre alone (< k) joins the last.
    let inst = star();
    let edges = microagg::init::clustering::muapprox::forest(&inst, 3);
    let groups_before = microagg::init::clustering::muapprox::decompose(&inst, 3, &edges);
    assert_eq!(sorted(groups_before), vec![vec![0, 4, 5, 6], vec![1, 2, 3]]);
    // A path that can be cut: gaps 1.0, 1.1, ..., 1.8 between ten records on a line, k = 3
    // (bound 5). Every record's nearest neighbour is its left one, so the forest is the path.
    // The longest edge with >= 3 records on both sides is (6,7), leaving 0..6 (7 > 5
    // records), whose longest such edge is (3,4).
    let mut v = vec![0.0];
    for gap in [1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8] {
        v.push(v.last().unwrap() + gap);
    }
    let inst = line(&v);
    let edges = microagg::init::clustering::muapprox::forest(&inst, 3);
    assert_eq!(edges.len(), 9);
    let g = sorted(microagg::init::clustering::muapprox::decompose(
        &inst, 3, &edges,
    ));
    assert_eq!(g, vec![vec![0, 1, 2, 3], vec![4, 5, 6], vec![7, 8, 9]]);
}

/// mu-Approx against Kabir et al. (2015) Tables VI-VIII (quoting Domingo-Ferrer et al.
/// 2008): not reproduced (see the module doc); our values are pinned as regression values and
/// must stay within 8 % of the published ones.
#[test]
fn muapprox_against_published() {
    let table = [
        (
            "tarragona",
            [
                (3, 17.10, 16.6709),
                (4, 20.51, 19.9714),
                (5, 26.04, 24.1907),
                (10, 38.80, 38.7794),
            ],
        ),
        (
            "census",
            [
                (3, 6.25, 6.2586),
                (4, 8.47, 8.6913),
                (5, 10.78, 10.5109),
                (10, 17.01, 17.3683),
            ],
        ),
        (
            "eia",
            [
                (3, 0.43, 0.4012),
                (4, 0.59, 0.5688),
                (5, 0.83, 0.7969),
                (10, 2.26, 2.2869),
            ],
        ),
    ];
    for (id, rows) in table {
        let Some(inst) = casc(id) else { continue };
        for (k, published, ours) in rows {
            let il = inst.il(run_method(&inst, "muapprox", k, 0).0);
            assert!(
                (il - ours).abs() < 0.5e-4,
                "{id} k={k}: IL {il:.6} vs pinned {ours}"
            );
            assert!(
                (il - published).abs() <= 0.08 * published,
                "{id} k={k}: {il} vs {published}"
            );
        }
    }
}

#[test]
fn fcm_hand_case() {
    // Prototypes at the records of value 1, 10 and 21 (k = 3): hard clusters {0,1,2,3}, {4},
    // {5,6,7}; {4} is below k and dissolves into its nearest surviving prototype, 1 (9 < 11).
    let inst = line(&[0.0, 1.0, 2.0, 3.0, 10.0, 20.0, 21.0, 22.0]);
    let mut protos = Vec::new();
    for i in [1, 4, 6] {
        protos.extend_from_slice(inst.row(i));
    }
    let g = microagg::init::clustering::fcm::assign_and_repair(
        &inst,
        &(0..inst.n).collect::<Vec<_>>(),
        3,
        &protos,
    );
    assert_eq!(sorted(g), vec![vec![0, 1, 2, 3, 4], vec![5, 6, 7]]);
}

#[test]
fn pcl_cells_have_equal_sizes() {
    // c = floor(n/k) cells of floor(n/c) or floor(n/c) + 1 records.
    let mut cases = vec![synthetic("gauss:n=503,d=5,clusters=7,seed=3")];
    cases.extend(casc("census"));
    for inst in &cases {
        for k in [3, 5, 10] {
            for init in ["init=mdav", "init=random"] {
                let p = format!("pcl.{init}");
                let (_, labels) = run_with(inst, "pcl", &[&p], k, 1);
                let sizes = group_sizes(&labels);
                let c = inst.n / k;
                let q = inst.n / c;
                assert_eq!(sizes.len(), c, "{init} k={k}");
                assert!(
                    sizes.iter().all(|&s| s == q || s == q + 1),
                    "{init} k={k}: {sizes:?}"
                );
            }
        }
    }
}

#[test]
fn pcl_with_mdav_start_is_never_worse_than_mdav() {
    let inst = synthetic("gauss:n=400,d=4,clusters=5,seed=9");
    for k in [3, 5, 10] {
        let (pcl, _) = run_method(&inst, "pcl", k, 0);
        let (mdav, _) = run_method(&inst, "mdav", k, 0);
        assert!(pcl <= mdav * (1.0 + 1e-12), "k={k}: {pcl} vs {mdav}");
    }
}

/// The exchange step of PCL's constrained assignment (module doc): without it the greedy
/// assignment from MDAV's centroids never beats MDAV on Census k = 5 (the best partition seen
/// is the start); with it IL drops from 9.0884 to 8.1842 (regression values).
#[test]
fn pcl_exchange_matters_on_census() {
    let Some(inst) = casc("census") else { return };
    let (greedy, _) = run_with(&inst, "pcl", &["pcl.exchange_passes=0"], 5, 0);
    let (exchange, _) = run_method(&inst, "pcl", 5, 0);
    let (mdav, _) = run_method(&inst, "mdav", 5, 0);
    assert_eq!(greedy.to_bits(), mdav.to_bits());
    assert!(
        (inst.il(exchange) - 8.1842).abs() < 0.5e-4,
        "IL {}",
        inst.il(exchange)
    );
}

#[test]
fn tree_and_fuzzy_methods_leave_no_group_of_2k() {
    let inst = synthetic("gauss:n=503,d=5,clusters=7,seed=3");
    for m in ["mst", "muapprox", "fcm"] {
        for k in [2, 3, 5, 10] {
            let (_, labels) = run_method(&inst, m, k, 0);
            assert_sizes_k_to_2k_minus_1(&labels, k, &format!("{m} k={k}"));
        }
    }
}

#[test]
fn ga_is_seeded_and_never_worse_than_block_mdav() {
    let inst = synthetic("gauss:n=300,d=4,clusters=5,seed=2");
    for k in [3, 5] {
        // generations = 0: the best of the initial population, which holds MDAV per block.
        let (start, _) = run_with(&inst, "ga", &["ga.generations=0", "ga.population=2"], k, 0);
        let (evolved, a) = run_with(&inst, "ga", &[], k, 0);
        assert!(
            evolved <= start * (1.0 + 1e-12),
            "k={k}: {evolved} vs {start}"
        );
        let (_, b) = run_with(&inst, "ga", &[], k, 0);
        assert_eq!(a, b, "same seed, same labels");
        let differs = (1..4).any(|s| run_with(&inst, "ga", &[], k, s).1 != a);
        assert!(differs, "k={k}: the seed is used");
    }
}

#[test]
fn ga_groups_have_k_to_2k_minus_1_records() {
    let inst = synthetic("gauss:n=503,d=5,clusters=7,seed=3");
    for k in [2, 3, 5, 10] {
        for seed_mdav in ["ga.seed_mdav=true", "ga.seed_mdav=false"] {
            let (_, labels) = run_with(&inst, "ga", &[seed_mdav, "ga.generations=50"], k, 1);
            assert_sizes_k_to_2k_minus_1(&labels, k, &format!("{seed_mdav} k={k}"));
        }
    }
}

#[test]
fn fcm_and_random_pcl_depend_on_the_seed_only() {
    let inst = synthetic("gauss:n=300,d=4,clusters=5,seed=2");
    for (m, p) in [("fcm", vec![]), ("pcl", vec!["pcl.init=random"])] {
        let (_, a) = run_with(&inst, m, &p, 5, 0);
        assert_eq!(a, run_with(&inst, m, &p, 5, 0).1, "{m}");
        assert!(
            (1..4).any(|s| run_with(&inst, m, &p, 5, s).1 != a),
            "{m}: the seed is used"
        );
    }
}

#[test]
fn bad_parameters_are_errors() {
    for (m, p) in [
        ("ga", "ga.population=1"),
        ("ga", "ga.mutation_rate=2"),
        ("fcm", "fcm.m=1"),
        ("fcm", "fcm.cluster_factor=0"),
        ("pcl", "pcl.init=kmeans"),
        ("pcl", "pcl.candidates=0"),
        ("kward", "kward.x=1"),
    ] {
        let r = microagg::pipeline::Pipeline::parse(m, &[p.to_string()]);
        assert!(r.is_err(), "{p} accepted");
    }
}

/// Feasible, IL above the attribute-sum lower bound and at most twice MDAV's.
fn check_casc(ids: &[&str], ks: &[usize], print: bool) {
    for id in ids {
        let Some(inst) = casc(id) else { continue };
        for &k in ks {
            let lb = inst.il(attribute_sum_lower_bound(&inst, k));
            let mdav = inst.il(run_method(&inst, "mdav", k, 0).0);
            let mut row = format!("{id:<10} k={k:<3} mdav {mdav:8.4}");
            for m in METHODS {
                let (sse, labels) = run_method(&inst, m, k, 0);
                let report = microagg::labels::check_labels(&inst, k, &labels).unwrap();
                assert!(report.feasible, "{m} {id} k={k}");
                let il = inst.il(sse);
                assert!(
                    il > lb && il <= 2.0 * mdav,
                    "{m} {id} k={k}: IL {il} (mdav {mdav}, bound {lb})"
                );
                row += &format!(" {m} {il:8.4}");
            }
            if print {
                println!("{row}");
            }
        }
    }
}

#[test]
fn casc_tarragona_census_sane() {
    check_casc(&["tarragona", "census"], &[3, 5, 10], false);
}

/// The whole table (EIA included, about 30 s); prints IL per method, seed 0.
#[test]
#[ignore]
fn casc_table_eia() {
    check_casc(&["tarragona", "census", "eia"], &[3, 5, 10], true);
}
