//! The MHM rows of Kabir et al. (2015), Tables VI-VIII (values quoted there from
//! Domingo-Ferrer, Martinez-Balleste, Mateo-Sanz & Sebe 2006), cell by cell (needs the CASC
//! files; see tests/common).
//!
//! 33 published cells (MDAV-MHM, MD-MHM, NPN-MHM on three data sets, CBFS-MHM on two, at
//! k = 3, 5, 10). Reproduced to the printed digits: 3 (MDAV-MHM Tarragona k = 3; MD-MHM
//! Tarragona k = 10 and Census k = 10). For the 30 others this test pins our value (4
//! decimals) and records the published one; the readings tried and why none reproduces the
//! rows are in the docs of `MHM_MDAV`, `MHM_MD`, `MHM_CBFS`, `MHM_NPN` (`init::mhm::order_cut`),
//! and every reading's full row is printed by `cargo run --release -p microagg-studies --example mhm_readings`.
//!
//! Why the rows are not reproduced (our explanation, not a proof): an MHM order that keeps
//! each group of its heuristic contiguous can never do worse than the heuristic, yet the
//! published MDAV-MHM is worse than MDAV at Census k = 10 (14.2239 vs 14.1559, no leftover
//! since 1080 = 108 * 10) and CBFS-MHM worse than CBFS-NN at Tarragona k = 3 (16.9714 vs
//! 16.966, 834 = 278 * 3). So the 2006 orders do not keep the groups contiguous, i.e. they are
//! not "groups in creation order" under any within-group or leftover reading; and the large
//! published gains on EIA (MDAV-MHM 0.4081 vs MDAV 0.4829) show they keep near groups
//! adjacent, which IMHM's chain path (`path = "chain"`) also does (EIA k = 3: 0.4087) without
//! matching the other cells. For NPN no start record reproduces any of the four cells tried
//! (all n starts, Tarragona k = 3, 5, 10 and Census k = 3), so the published NPN differs in
//! more than its start. Computing the NPN, MDAV or MD order on raw values or on min-max
//! scaled values instead of z-scores (segmentation and IL on z-scores) reproduces no cell
//! either (`cargo run --release -p microagg-studies --example mhm_readings scaled`). The 2006 paper itself (its
//! exact ordering rules) is not available here.

use crate::common;
use common::{casc, run_method};

/// Half a unit of the last printed decimal of `printed`.
fn half_unit(printed: &str) -> f64 {
    let decimals = printed.split('.').nth(1).map_or(0, str::len) as i32;
    0.5 * 10f64.powi(-decimals)
}

/// (method, data set, k, published as printed, ours to 4 decimals, reproduced).
const CELLS: &[(&str, &str, usize, &str, f64, bool)] = &[
    // MDAV-MHM. Ours equals MDAV's own IL in every cell (creation order: consecutive groups
    // lie at opposite extremes, the segmentation finds nothing better).
    ("mhm-mdav", "tarragona", 3, "16.9326", 16.9326, true),
    ("mhm-mdav", "tarragona", 5, "22.4617", 22.4613, false), // ours 0.0004 lower
    ("mhm-mdav", "tarragona", 10, "33.1923", 33.1929, false), // ours 0.0006 higher
    ("mhm-mdav", "census", 3, "5.6523", 5.6922, false),      // ours 0.040 higher
    ("mhm-mdav", "census", 5, "9.0870", 9.0884, false),      // ours 0.0014 higher
    ("mhm-mdav", "census", 10, "14.2239", 14.1559, false),   // ours 0.068 lower
    ("mhm-mdav", "eia", 3, "0.4081", 0.4829, false),         // ours 0.075 higher
    ("mhm-mdav", "eia", 5, "1.2563", 1.6667, false),         // ours 0.41 higher
    ("mhm-mdav", "eia", 10, "3.7725", 3.8397, false),        // ours 0.067 higher
    // MD-MHM.
    ("mhm-md", "tarragona", 3, "16.9829", 16.9834, false), // ours 0.0005 higher
    ("mhm-md", "tarragona", 5, "22.5269", 22.5271, false), // ours 0.0002 higher
    ("mhm-md", "tarragona", 10, "33.1834", 33.1834, true),
    ("mhm-md", "census", 3, "5.69724", 5.7210, false), // ours 0.024 higher
    ("mhm-md", "census", 5, "8.98594", 9.0065, false), // ours 0.021 higher
    ("mhm-md", "census", 10, "14.3965", 14.3965, true),
    ("mhm-md", "eia", 3, "0.4422", 0.4723, false), // ours 0.030 higher
    ("mhm-md", "eia", 5, "1.2627", 1.6694, false), // ours 0.41 higher
    ("mhm-md", "eia", 10, "3.6374", 3.7141, false), // ours 0.077 higher
    // CBFS-MHM (NN growth; EIA not printed).
    ("mhm-cbfs", "tarragona", 3, "16.9714", 16.9661, false), // ours 0.005 lower
    ("mhm-cbfs", "tarragona", 5, "22.8227", 22.8183, false), // ours 0.004 lower
    ("mhm-cbfs", "tarragona", 10, "33.2188", 33.2154, false), // ours 0.003 lower
    ("mhm-cbfs", "census", 3, "5.6734", 5.6536, false),      // ours 0.020 lower
    ("mhm-cbfs", "census", 5, "8.8942", 8.8840, false),      // ours 0.010 lower
    ("mhm-cbfs", "census", 10, "13.8925", 14.0066, false),   // ours 0.11 higher
    // NPN-MHM (start: the record farthest from the record farthest from the centroid).
    ("mhm-npn", "tarragona", 3, "17.3949", 17.3050, false), // ours 0.09 lower
    ("mhm-npn", "tarragona", 5, "27.0213", 27.0105, false), // ours 0.011 lower
    ("mhm-npn", "tarragona", 10, "40.1831", 40.0370, false), // ours 0.15 lower
    ("mhm-npn", "census", 3, "6.3498", 6.2947, false),      // ours 0.055 lower
    ("mhm-npn", "census", 5, "11.3443", 10.8713, false),    // ours 0.47 lower
    ("mhm-npn", "census", 10, "18.7335", 19.2384, false),   // ours 0.50 higher
    ("mhm-npn", "eia", 3, "0.5525", 0.5071, false),         // ours 0.045 lower
    ("mhm-npn", "eia", 5, "0.9602", 0.9888, false),         // ours 0.029 higher
    ("mhm-npn", "eia", 10, "2.3188", 2.2675, false),        // ours 0.051 lower
];

#[test]
fn mhm_rows_of_the_sorting_framework_tables_cell_by_cell() {
    assert_eq!(CELLS.len(), 33);
    assert_eq!(CELLS.iter().filter(|c| c.5).count(), 3);
    for id in ["tarragona", "census", "eia"] {
        let Some(inst) = casc(id) else { continue };
        for &(method, set, k, printed, ours, reproduced) in CELLS.iter().filter(|c| c.1 == id) {
            let (sse, _) = run_method(&inst, method, k, 0);
            let il = inst.il(sse);
            let published: f64 = printed.parse().unwrap();
            if reproduced {
                assert!(
                    (il - published).abs() <= half_unit(printed),
                    "{method} {set} k={k}: IL {il:.6}, published {printed}"
                );
            } else {
                assert!(
                    (il - published).abs() > half_unit(printed),
                    "{method} {set} k={k}: IL {il:.6} now reproduces {printed}: update the table"
                );
            }
            assert!(
                (il - ours).abs() <= 0.5e-4 + 1e-9,
                "{method} {set} k={k}: IL {il:.6}, pinned {ours}"
            );
        }
    }
}

/// Under `path = "creation"` the heuristic's own groups are runs of the order, so MHM is
/// never worse than the heuristic (MDAV, MD, CBFS-NN), on every CASC set and k.
#[test]
fn creation_order_mhm_is_never_worse_than_its_heuristic() {
    for id in ["tarragona", "census", "eia"] {
        let Some(inst) = casc(id) else { continue };
        for k in [3, 5, 10] {
            for (mhm, base) in [
                ("mhm-mdav", "mdav"),
                ("mhm-md", "md"),
                ("mhm-cbfs", "cbfs-nn"),
            ] {
                let (s_mhm, _) = run_method(&inst, mhm, k, 0);
                let (s_base, _) = run_method(&inst, base, k, 0);
                assert!(
                    s_mhm <= s_base * (1.0 + 1e-12),
                    "{mhm} {id} k={k}: SSE {s_mhm} > {base} {s_base}"
                );
            }
        }
    }
}
