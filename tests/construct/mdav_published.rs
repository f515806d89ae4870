//! The MDAV family against published values (needs the CASC files; see tests/common).

use crate::common;
use common::{assert_table1_sse, assert_table1_sst, casc, run_method, table1_rows};

/// `mdav` IL to 4 decimals on the twelve published cases (Chettri & Borah 2012 Table 1 and
/// the MDAV literature; see ../shared/instances/README.md).
#[test]
fn mdav_reproduces_the_twelve_published_il_values_to_4_decimals() {
    let published = [
        ("tarragona", [16.9326, 19.5458, 22.4613, 33.1929]),
        ("census", [5.6922, 7.4947, 9.0884, 14.1559]),
        ("eia", [0.4829, 0.6713, 1.6667, 3.8397]),
    ];
    for (id, values) in published {
        let Some(inst) = casc(id) else { continue };
        for (k, want) in [3, 4, 5, 10].into_iter().zip(values) {
            let (sse, _) = run_method(&inst, "mdav", k, 0);
            let il = inst.il(sse);
            assert!(
                (il - want).abs() < 0.5e-4,
                "mdav {id} k={k}: IL {il:.6} but published {want}"
            );
        }
    }
}

/// Table 1 of Chettri & Borah 2012 prints SSE with SST = n * d. Census and EIA agree to the
/// printed 3rd decimal (except MDAV1 EIA k = 10: printed 1728.309, ours 1728.3097). Tarragona
/// is off in every cell by a relative +3e-7 to +5e-7 (0.0006 to 0.0018 absolute), in the
/// same direction for all k and all rows, so it is not a variant question (the variants
/// differ by at least 9e-6 relative, see `table1_tolerance_separates_the_variants`).
/// Redoing the standardisation in single precision moves our values by only ~1e-7 (checked
/// with numpy; see the issue note), so the cause is outside the algorithm (the authors'
/// program or copy of the file). Those cells are compared at relative 1e-6. The rows checked
/// here: Table 1 rows 2 and 3 (the printed values: `common::table1_rows`).
const TABLE1_ROWS: [&str; 2] = ["mdav-generic", "mdav1"];

/// Absolute tolerance: half a unit of the 3rd decimal, widened to a relative 1e-6 for the
/// cells documented above: all of Tarragona, and MDAV1 on EIA at k = 10.
fn tolerance(id: &str, method: &str, k: usize, value: f64) -> f64 {
    if id == "tarragona" || (id == "eia" && method == "mdav1" && k == 10) {
        1e-6 * value
    } else {
        0.5e-3
    }
}

#[test]
fn mdav_generic_and_mdav1_match_table1_sse() {
    for (method, id, values) in table1_rows(&TABLE1_ROWS) {
        let Some(inst) = casc(id) else { continue };
        assert_table1_sst(&inst);
        for (k, want) in [3, 4, 5, 10].into_iter().zip(values) {
            let (sse, _) = run_method(&inst, method, k, 0);
            let tol = tolerance(id, method, k, want);
            assert_table1_sse(method, id, k, sse, want, tol);
        }
    }
}

/// Where the variants give different partitions, their SSEs differ by at least five times the
/// tolerance, so the Table 1 test could not pass with the wrong variant.
#[test]
fn table1_tolerance_separates_the_variants() {
    let Some(inst) = casc("tarragona") else {
        return;
    };
    for k in [4, 5, 10] {
        let (generic, _) = run_method(&inst, "mdav-generic", k, 0);
        let (one, _) = run_method(&inst, "mdav1", k, 0);
        let (published_form, _) = run_method(&inst, "mdav", k, 0);
        let tol = 1e-6 * generic;
        assert!(
            (generic - one).abs() > 5.0 * tol,
            "k={k}: {generic} vs {one}"
        );
        if k != 10 {
            assert!((generic - published_form).abs() > 5.0 * tol, "k={k}");
        }
    }
}
