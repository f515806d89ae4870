//! Khomnotai et al. (2018), Tables 2-4, rows with suffix 2 (one Decompose pass, `tfrp2`)
//! and suffix 3 (Decompose/Shrink, `decompose-shrink`) for all seven initializers
//! (CBFS-NN/NC, MDAV-NN/NC, TFRP-NN/NC, GSMS-NN), read from
//! `instances/published/khomnotai2018.toml`. Each refined IL must be at most 0.01 above the
//! printed value; it is usually below, because our Decompose fires whenever the exact SSE
//! falls (see tests/construct/decompose_shrink_published.rs and src/search/decompose_shrink.rs).
//! Cells that exceed the published value by more than 0.01 are listed in `DIFFERENCES`
//! with our value (17 of 252 cells). Prints the full comparison table (`--nocapture`).

use crate::common;
use microagg::search::{refine, Refiner};
use std::sync::atomic::AtomicBool;

const TABLES: &str = include_str!("../../instances/published/khomnotai2018.toml");
const KS: [usize; 6] = [3, 4, 5, 10, 20, 30];
/// (table row prefix, our initializer)
const INITS: &[(&str, &str)] = &[
    ("CBFS-NN", "cbfs-nn"),
    ("CBFS-NC", "cbfs"),
    ("MDAV-NN", "mdav"),
    ("MDAV-NC", "mdav-nc"),
    ("TFRP-NN", "tfrp"),
    ("TFRP-NC", "tfrp-nc"),
    ("GSMS-NN", "gsms"),
];
/// (data, row, k, our IL): the 17 of 252 cells more than 0.01 above the printed value, not
/// explained. Our Decompose (exact delta, all records to the nearest centroid at once) and
/// Shrink (best record-group shift) differ from the authors' implementation in ways the
/// text does not settle (the MDAV-NN rows show theirs fires far less often), so on some
/// starts our refinement takes a different, here worse, path. Asserted to 5 decimals so a
/// change of behaviour is caught.
const DIFFERENCES: &[(&str, &str, usize, f64)] = &[
    ("tarragona", "MDAV-NC2", 4, 19.15902),  // published 19.14
    ("tarragona", "MDAV-NC3", 30, 47.50208), // published 47.297
    ("tarragona", "TFRP-NN3", 5, 22.57962),  // published 22.408
    ("tarragona", "TFRP-NC3", 20, 41.42705), // published 41.358
    ("tarragona", "TFRP-NC3", 30, 47.11456), // published 47.034
    ("tarragona", "GSMS-NN3", 5, 21.35451),  // published 21.311
    ("census", "CBFS-NC3", 30, 20.46211),    // published 20.326
    ("census", "TFRP-NC3", 20, 18.01294),    // published 17.973
    ("census", "TFRP-NC3", 30, 21.17859),    // published 20.892
    ("census", "GSMS-NN3", 20, 17.24300),    // published 17.23
    ("eia", "CBFS-NC2", 5, 0.96118),         // published 0.891
    ("eia", "MDAV-NC2", 5, 0.98344),         // published 0.962
    ("eia", "TFRP-NC2", 5, 0.96885),         // published 0.887
    ("eia", "GSMS-NN2", 5, 0.92896),         // published 0.89
    ("eia", "GSMS-NN2", 10, 2.58642),        // published 2.569
    ("eia", "GSMS-NN2", 30, 11.09473),       // published 10.704
    ("eia", "GSMS-NN3", 30, 9.76593),        // published 9.314
];

fn refined(
    inst: &microagg::data::Instance,
    k: usize,
    start: &microagg::partition::Partition,
    mut r: Box<dyn Refiner>,
) -> f64 {
    let never = AtomicBool::new(false);
    let mut rng = <microagg::rng::Rng as rand::SeedableRng>::seed_from_u64(0);
    let out = refine(r.as_mut(), inst, k, start.clone(), &mut rng, None, &never).unwrap();
    assert!(out.partition.is_feasible(k));
    inst.il(out.partition.sse())
}

/// About 40 s of CPU (252 refinements, EIA dominates): run explicitly with
/// `cargo test --release --test construct -- --ignored decompose_shrink_rows:: --nocapture`.
#[test]
#[ignore = "slow (about 40 s CPU); run with --ignored"]
fn suffix_2_and_3_rows_are_reproduced_or_bettered() {
    let tables: toml::Value = toml::from_str(TABLES).unwrap();
    let mut bad = Vec::new();
    for data in ["tarragona", "census", "eia"] {
        let Some(inst) = common::casc(data) else {
            continue;
        };
        for &(row, init) in INITS {
            for (col, &k) in KS.iter().enumerate() {
                let never = AtomicBool::new(false);
                let start = microagg::pipeline::Pipeline::parse(init, &[])
                    .unwrap()
                    .run(&inst, k, 0, None, &never)
                    .unwrap()
                    .partition;
                let empty = serde_json::Map::new();
                let find = |m: &str| {
                    microagg::registry::find(m)
                        .unwrap()
                        .make_refiner(&empty)
                        .unwrap()
                };
                let ours = [
                    refined(&inst, k, &start, find("tfrp2")),
                    refined(&inst, k, &start, find("decompose-shrink")),
                ];
                for (suffix, il) in ["2", "3"].iter().zip(ours) {
                    let name = format!("{row}{suffix}");
                    let printed: f64 = tables[data][&name][col].as_str().unwrap().parse().unwrap();
                    println!("{data:<10} {name:<9} k={k:<3} published {printed:<8} ours {il:.5} diff {:+.4}", il - printed);
                    let ok = match DIFFERENCES
                        .iter()
                        .find(|d| d.0 == data && d.1 == name && d.2 == k)
                    {
                        Some(d) => (il - d.3).abs() < 1e-5,
                        None => il <= printed + 0.01,
                    };
                    if !ok {
                        bad.push(format!(
                            "(\"{data}\", \"{name}\", {k}, {il:.5}), // published {printed}"
                        ));
                    }
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "cells off by more than 0.01:\n{}",
        bad.join("\n")
    );
}
