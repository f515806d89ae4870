//! Chettri & Borah (2012) Table 1, rows 1 (MDAV = Algorithm-1), 4 (MDAV-single-group), 5
//! (V-MDAV) and 6 (MDAV2k): SSE on Tarragona, Census and EIA for k = 3, 4, 5, 10 (needs the
//! CASC files; see tests/common). Rows 2 and 3 are in tests/construct/mdav_published.rs.
//!
//! Tolerance, as in tests/construct/mdav_published.rs: Table 1 uses SST = n * d and its values carry a
//! relative error of up to about 5e-7 against double precision (Tarragona systematically
//! +3e-7 to +5e-7, the size of single-precision rounding), so Tarragona is compared at a
//! relative 1e-6 and the others at half a unit of the printed 3rd decimal.
//! `table1_tolerance_separates_the_methods` checks that this is far tighter than the
//! differences between the methods.

use crate::common;
use common::{assert_table1_sse, assert_table1_sst, casc, table1_rows};
use microagg::data::Instance;
use microagg::pipeline::Pipeline;
use std::sync::atomic::AtomicBool;

const KS: [usize; 4] = [3, 4, 5, 10];

/// V-MDAV cases where our faithful reading of Algorithm-5 does not reproduce Table 1
/// (documented in src/init/lineage/vmdav.rs): (data set, k, our SSE). Table 1 is higher in all.
const VMDAV_DIFFERS: [(&str, usize, f64); 7] = [
    ("tarragona", 3, 1839.1239972),
    ("tarragona", 5, 2480.4143949),
    ("tarragona", 10, 3605.2548323),
    ("eia", 3, 228.6900451),
    ("eia", 4, 436.7739097),
    ("eia", 5, 586.9515568),
    ("eia", 10, 1262.4569601),
];

fn tolerance(id: &str, value: f64) -> f64 {
    if id == "tarragona" {
        1e-6 * value
    } else {
        0.5e-3
    }
}

/// The method's parameters as in Table 1: V-MDAV uses gamma = 1.1 on EIA (0.2 elsewhere,
/// the default).
fn run(inst: &Instance, method: &str, k: usize) -> (f64, Vec<usize>) {
    let params: Vec<String> = if method == "vmdav" && inst.name == "eia" {
        vec!["vmdav.gamma=1.1".into()]
    } else {
        vec![]
    };
    let never = AtomicBool::new(false);
    let out = Pipeline::parse(method, &params)
        .expect("known method")
        .run(inst, k, 0, None, &never)
        .unwrap_or_else(|e| panic!("{method} on {} k={k}: {e}", inst.name));
    assert!(out.partition.is_feasible(k), "{method} {} k={k}", inst.name);
    (out.partition.sse(), out.partition.canonical_labels())
}

fn documented_vmdav_difference(id: &str, k: usize) -> Option<f64> {
    VMDAV_DIFFERS
        .iter()
        .find(|(i, kk, _)| *i == id && *kk == k)
        .map(|&(_, _, v)| v)
}

#[test]
fn table1_rows_1_4_5_6_are_reproduced() {
    for (method, id, values) in table1_rows(&["mdav-a1", "mdav-single", "vmdav", "mdav2k"]) {
        let Some(inst) = casc(id) else { continue };
        assert_table1_sst(&inst);
        for (k, want) in KS.into_iter().zip(values) {
            let (sse, _) = run(&inst, method, k);
            let tol = tolerance(id, want);
            if method == "vmdav" {
                if let Some(ours) = documented_vmdav_difference(id, k) {
                    // Our value is pinned, and it is NOT the published one: if this starts
                    // to match Table 1, update the note in src/init/lineage/vmdav.rs.
                    assert!(
                        (sse - ours).abs() <= 1e-6 * ours,
                        "vmdav {id} k={k}: SSE {sse:.7} but documented {ours}"
                    );
                    assert!(
                        want - sse > 100.0 * tol,
                        "vmdav {id} k={k}: {sse:.4} now near Table 1's {want}"
                    );
                    continue;
                }
            }
            assert_table1_sse(method, id, k, sse, want, tol);
        }
    }
}

/// Wherever two of the methods (or `mdav`, the record-by-record leftover form) give
/// different partitions, their SSEs differ by more than twice the tolerance, so none of them
/// could pass the Table 1 test in another's place (|a - published| <= tol and |a - b| > 2 tol
/// give |b - published| > tol). The closest pair is Tarragona k = 4, MDAV-single vs MDAV2k:
/// 0.0057 apart (Table 1 prints the same gap) against a tolerance of 0.0021.
#[test]
fn table1_tolerance_separates_the_methods() {
    let methods = ["mdav", "mdav-a1", "mdav-single", "vmdav", "mdav2k"];
    let mut separated_pairs = 0;
    // Tarragona only: its values are the closest together (and its tolerance the widest).
    for id in ["tarragona"] {
        let Some(inst) = casc(id) else { continue };
        for k in KS {
            let runs: Vec<(f64, Vec<usize>)> = methods.iter().map(|m| run(&inst, m, k)).collect();
            for a in 0..methods.len() {
                for b in a + 1..methods.len() {
                    if runs[a].1 == runs[b].1 {
                        continue;
                    }
                    let tol = tolerance(id, runs[a].0);
                    assert!(
                        (runs[a].0 - runs[b].0).abs() > 2.0 * tol,
                        "{id} k={k}: {} {} vs {} {}",
                        methods[a],
                        runs[a].0,
                        methods[b],
                        runs[b].0
                    );
                    separated_pairs += 1;
                }
            }
        }
    }
    if casc("tarragona").is_some() {
        assert!(
            separated_pairs > 30,
            "only {separated_pairs} distinct pairs"
        );
    }
}

/// The variable-size methods keep groups within k..2k-1 except where their description
/// allows more: MDAV2k's last group (k..2k) and V-MDAV's groups that receive leftovers.
#[test]
fn variable_size_methods_respect_their_size_bounds() {
    let Some(inst) = casc("census") else { return };
    for k in KS {
        let never = AtomicBool::new(false);
        let p = Pipeline::parse("mdav2k", &[])
            .unwrap()
            .run(&inst, k, 0, None, &never)
            .unwrap()
            .partition;
        let oversize: Vec<usize> = (0..p.slots()).filter(|&g| p.size(g) > 2 * k - 1).collect();
        assert!(oversize.len() <= 1, "mdav2k k={k}: {oversize:?}");
        assert!(
            p.size_range().1 <= 2 * k,
            "mdav2k k={k}: {:?}",
            p.size_range()
        );
    }
}
