//! The fixed-size heuristics against Tables 2-4 of Khomnotai, Lin, Peng & Santra (2018),
//! "Iterative Group Decomposition for Refining Microaggregation Solutions", Symmetry
//! 10(7):262: IL (%) on Tarragona, Census and EIA for k = 3, 4, 5, 10, 20, 30.
//!
//! The printed numbers are read from `instances/published/khomnotai2018.toml` (the full
//! transcription of Tables 2-4, shared with the refinement rows' tests); each cell is
//! compared to its printed digits (half a unit of the last printed decimal). The few cells
//! this code does not reproduce are listed in `DIFFERENCES` with our value (asserted to 5
//! decimals, so a change of behaviour is caught) and the reason; the module docs of the
//! methods explain them. Needs the CASC files (see tests/common).

use crate::common;
use common::{casc, run_method};
use microagg::data::Instance;
use microagg::init::lineage::growth::Growth;
use microagg::init::lineage::mdav_nc::{mdav_groups, MdavForm};
use microagg::partition::Partition;

const TABLES: &str = include_str!("../../instances/published/khomnotai2018.toml");
const KS: [usize; 6] = [3, 4, 5, 10, 20, 30];

/// Cells not reproduced to the printed digits: (data set, table row, k, our IL to 5
/// decimals, why).
const DIFFERENCES: &[(&str, &str, usize, f64, &str)] = &[
    (
        "tarragona",
        "CBFS-NN",
        5,
        22.81850,
        "rounding edge: ours 22.818497..22.818505, printed 22.819",
    ),
    (
        "census",
        "CBFS-NN",
        10,
        14.00656,
        "unexplained: printed 14.001 (no tested reading gives it)",
    ),
    (
        "tarragona",
        "TFRP-NN",
        20,
        43.41653,
        "rounding edge: 5e-4 + 3e-5 from printed 43.416",
    ),
    (
        "tarragona",
        "TFRP-NC",
        20,
        47.69312,
        "unexplained: printed 47.654 (no tested reading gives it)",
    ),
    (
        "tarragona",
        "MDAV-NN",
        20,
        43.19446,
        "rounding edge: 5e-4 + 4e-5 from printed 43.195",
    ),
];

/// Printed cells of one table row: (value, number of printed decimals) per k.
fn printed(tables: &toml::Value, id: &str, row: &str) -> Vec<(f64, i32)> {
    let cells = tables[id][row]
        .as_array()
        .unwrap_or_else(|| panic!("{id} {row} missing"));
    assert_eq!(cells.len(), KS.len(), "{id} {row}: one cell per k");
    cells
        .iter()
        .map(|c| {
            let text = c
                .as_str()
                .expect("cells are strings (they keep the printed digits)");
            let decimals = text.split('.').nth(1).map_or(0, str::len) as i32;
            (text.parse().expect("a number"), decimals)
        })
        .collect()
}

/// Compare one row for every data set and k; `il_of` computes our IL.
fn check_row(row: &str, il_of: &dyn Fn(&Instance, usize) -> f64) {
    let tables: toml::Value = toml::from_str(TABLES).expect("valid table file");
    let mut failures = Vec::new();
    let mut reproduced = 0;
    for id in ["tarragona", "census", "eia"] {
        let Some(inst) = casc(id) else { continue };
        for (&k, (want, decimals)) in KS.iter().zip(printed(&tables, id, row)) {
            let il = il_of(&inst, k);
            let documented = DIFFERENCES
                .iter()
                .find(|d| d.0 == id && d.1 == row && d.2 == k);
            match documented {
                Some(&(_, _, _, ours, why)) => {
                    if (il - ours).abs() > 0.5e-5 {
                        failures.push(format!("{id} k={k}: IL {il:.6}, documented {ours} ({why})"));
                    }
                }
                None => {
                    if (il - want).abs() > 0.5 * 10f64.powi(-decimals) {
                        failures.push(format!("{id} k={k}: IL {il:.6}, printed {want}"));
                    } else {
                        reproduced += 1;
                    }
                }
            }
        }
    }
    eprintln!("{row}: {reproduced} cells reproduced to the printed digits");
    assert!(failures.is_empty(), "{row}:\n{}", failures.join("\n"));
}

fn method_il(method: &str) -> impl Fn(&Instance, usize) -> f64 + '_ {
    move |inst, k| inst.il(run_method(inst, method, k, 0).0)
}

#[test]
fn mdav_nc_matches_row_mdav_nc() {
    check_row("MDAV-NC", &method_il("mdav-nc"));
}

#[test]
fn cbfs_matches_row_cbfs_nc() {
    check_row("CBFS-NC", &method_il("cbfs"));
}

#[test]
fn cbfs_nn_matches_row_cbfs_nn() {
    check_row("CBFS-NN", &method_il("cbfs-nn"));
}

#[test]
fn tfrp_matches_row_tfrp_nn() {
    check_row("TFRP-NN", &method_il("tfrp"));
}

#[test]
fn tfrp_nc_matches_row_tfrp_nc() {
    check_row("TFRP-NC", &method_il("tfrp-nc"));
}

#[test]
fn gsms_matches_row_gsms_nn() {
    check_row("GSMS-NN", &method_il("gsms"));
}

/// The paper's MDAV-NN is MDAV in the frame of its other rows (rounds while >= k remain,
/// leftover < k to the nearest groups), not the registered `mdav` frame (15 of 18 cells:
/// it differs on Tarragona k = 10, 20, 30), so the row is checked with that frame.
#[test]
fn mdav_in_the_while_k_frame_matches_row_mdav_nn() {
    check_row("MDAV-NN", &|inst, k| {
        let groups = mdav_groups(inst, k, Growth::NearestNeighbours, MdavForm::WhileK);
        inst.il(Partition::from_groups(inst, &groups)
            .expect("a partition")
            .sse())
    });
}

/// The table file holds all 21 rows of each table (the refinement rows too).
#[test]
fn table_file_holds_all_rows() {
    let tables: toml::Value = toml::from_str(TABLES).expect("valid table file");
    for id in ["tarragona", "census", "eia"] {
        let rows = tables[id].as_table().expect("a table per data set");
        assert_eq!(rows.len(), 21, "{id}");
        for heuristic in [
            "CBFS-NN", "CBFS-NC", "MDAV-NN", "MDAV-NC", "TFRP-NN", "TFRP-NC", "GSMS-NN",
        ] {
            for suffix in ["", "2", "3"] {
                assert_eq!(
                    printed(&tables, id, &format!("{heuristic}{suffix}")).len(),
                    6
                );
            }
        }
    }
    // Spot checks against the paper text: first and last cells of Tables 2 and 4.
    assert_eq!(printed(&tables, "tarragona", "CBFS-NN")[0], (16.966, 3));
    assert_eq!(printed(&tables, "eia", "GSMS-NN3")[5], (9.314, 3));
    assert_eq!(printed(&tables, "eia", "TFRP-NN3")[2], (0.8, 1));
}
