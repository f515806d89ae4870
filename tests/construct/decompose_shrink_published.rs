//! Khomnotai et al. (2018), Tables 2-4, rows MDAV-NN2 (MDAV + one Decompose pass = `tfrp2`)
//! and MDAV-NN3 (MDAV + Decompose/Shrink = `decompose-shrink`), k = 3, 4, 5, 10, 20, 30.
//! MDAV-NN is our `mdav` (it reproduces the MDAV-NN row, e.g. Tarragona k = 5 22.4613).
//!
//! Our values are at most 0.01 above the published ones and in most cases lower (better):
//! our Decompose dissolves a group whenever the exact SSE of the partition after moving all
//! its records to their nearest groups is lower, which fires more often than the paper's
//! implementation evidently did (e.g. Tarragona k = 3: paper 16.9326 -> 16.9324, ours
//! -> 16.6122). A stricter reading (dissolve only if every record's individual shift
//! lowers the SSE) reproduces Tarragona k = 4 (19.029) and k = 10 (33.192) but not k = 3 or
//! 5, so we keep the exact-delta reading and document the difference (module doc of
//! src/search/decompose_shrink.rs). The test asserts both: our value is within 0.01 of or
//! below the published one, and equals our recorded value to 1e-6 (regression).

use crate::common;
use std::sync::atomic::AtomicBool;

/// (data, k, published NN2, ours tfrp2, published NN3, ours decompose-shrink)
const ROWS: &[(&str, usize, f64, f64, f64, f64)] = &[
    ("tarragona", 3, 16.9324, 16.612232, 16.9320, 15.481469),
    ("tarragona", 4, 19.029, 19.020369, 18.434, 18.267984),
    ("tarragona", 5, 22.4613, 22.075511, 22.4612, 21.127799),
    ("tarragona", 10, 33.192, 33.179925, 33.184, 32.828445),
    ("tarragona", 20, 43.099, 43.100998, 42.771, 42.703592),
    ("tarragona", 30, 49.460, 49.384017, 49.261, 47.907768),
    ("census", 3, 5.683, 5.657110, 5.660, 5.465170),
    ("census", 4, 7.434, 7.410262, 7.218, 6.989556),
    ("census", 5, 9.054, 9.029652, 8.950, 8.449760),
    ("census", 10, 14.017, 14.002624, 12.809, 12.461368),
    ("census", 20, 19.492, 19.482750, 18.129, 17.910781),
    ("census", 30, 23.289, 23.233996, 21.201, 21.094474),
    ("eia", 3, 0.417, 0.410957, 0.401, 0.381494),
    ("eia", 4, 0.614, 0.587271, 0.587, 0.523416),
    ("eia", 5, 0.969, 0.922036, 0.802, 0.787235),
    ("eia", 10, 2.931, 2.916997, 2.022, 2.003368),
    ("eia", 20, 7.010, 6.989987, 6.806, 6.645116),
    ("eia", 30, 10.192, 10.074713, 9.873, 9.366280),
];

fn il(inst: &microagg::data::Instance, spec: &str, k: usize) -> f64 {
    let out = microagg::pipeline::Pipeline::parse(spec, &[])
        .unwrap()
        .run(inst, k, 0, None, &AtomicBool::new(false))
        .unwrap();
    assert!(out.partition.is_feasible(k));
    inst.il(out.partition.sse())
}

#[test]
fn mdav_nn2_and_nn3_rows_are_reproduced_or_bettered() {
    for data in ["tarragona", "census", "eia"] {
        let Some(inst) = common::casc(data) else {
            continue;
        };
        for &(_, k, pub2, ours2, pub3, ours3) in ROWS.iter().filter(|r| r.0 == data) {
            let mdav = il(&inst, "mdav", k);
            let nn2 = il(&inst, "mdav+tfrp2", k);
            let nn3 = il(&inst, "mdav+decompose-shrink", k);
            assert!(
                nn2 <= pub2 + 0.01,
                "{data} k={k}: tfrp2 {nn2} vs published {pub2}"
            );
            assert!(
                nn3 <= pub3 + 0.01,
                "{data} k={k}: decompose-shrink {nn3} vs published {pub3}"
            );
            assert!(
                (nn2 - ours2).abs() < 1e-6,
                "{data} k={k}: tfrp2 {nn2} != recorded {ours2}"
            );
            assert!(
                (nn3 - ours3).abs() < 1e-6,
                "{data} k={k}: decompose-shrink {nn3} != recorded {ours3}"
            );
            assert!(
                nn3 <= nn2 + 1e-9 && nn2 <= mdav + 1e-9,
                "{data} k={k}: not monotone"
            );
        }
    }
}
