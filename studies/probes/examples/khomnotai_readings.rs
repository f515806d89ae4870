//! Compare the readings of the fixed-size heuristics' descriptions with Tables 2-4 of
//! Khomnotai et al. (2018): for each method row and reading, the IL per data set and k and
//! how many cells match the printed value to its printed digits.
//!
//! `cargo run --release --example khomnotai_readings` (needs ../shared/instances).

use microagg::data::{self, ColumnSelection, Instance};
use microagg::init::lineage::cbfs::{cbfs_groups, CbfsReading};
use microagg::init::lineage::growth::{Growth, Leftover};
use microagg::init::lineage::gsms::gsms_groups;
use microagg::init::lineage::mdav_nc::{mdav_groups, MdavForm};
use microagg::init::lineage::tfrp::{tfrp_groups, TfrpFrame, TfrpReading};
use microagg::partition::Partition;

const TABLES: &str = include_str!("../../../instances/published/khomnotai2018.toml");
const KS: [usize; 6] = [3, 4, 5, 10, 20, 30];

type Builder = Box<dyn Fn(&Instance, usize) -> Vec<Vec<usize>>>;

fn readings() -> Vec<(&'static str, String, Builder)> {
    use Growth::{NearestNeighbours as NN, NearestToCentroid as NC};
    let mut out: Vec<(&'static str, String, Builder)> = Vec::new();
    for (row, g) in [("MDAV-NN", NN), ("MDAV-NC", NC)] {
        for form in [MdavForm::Published, MdavForm::Generic, MdavForm::WhileK] {
            out.push((
                row,
                format!("{form:?}"),
                Box::new(move |i, k| mdav_groups(i, k, g, form)),
            ));
        }
    }
    for (row, g) in [("CBFS-NN", NN), ("CBFS-NC", NC)] {
        for rem in [true, false] {
            for dist in [true, false] {
                let r = CbfsReading {
                    centroid_of_remaining: rem,
                    distribute_leftover: dist,
                };
                out.push((
                    row,
                    format!("{r:?}"),
                    Box::new(move |i, k| cbfs_groups(i, k, g, r)),
                ));
            }
        }
    }
    for (row, g) in [("TFRP-NN", NN), ("TFRP-NC", NC)] {
        for frame in [
            TfrpFrame::TwoPerRound,
            TfrpFrame::Generic,
            TfrpFrame::Alternate,
        ] {
            for min_first in [true, false] {
                for leftover in [
                    Leftover::EachToNearestCentroid,
                    Leftover::EachToNearestUpdatedCentroid,
                    Leftover::EachToGroupOfNearestRecord,
                ] {
                    let r = TfrpReading {
                        frame,
                        min_first,
                        leftover,
                    };
                    out.push((
                        row,
                        format!("{r:?}"),
                        Box::new(move |i, k| tfrp_groups(i, k, g, r)),
                    ));
                }
            }
        }
    }
    for dist in [false, true] {
        out.push((
            "GSMS-NN",
            format!("distribute_leftover={dist}"),
            Box::new(move |i, k| gsms_groups(i, k, dist)),
        ));
    }
    out
}

fn main() {
    let tables: toml::Value = toml::from_str(TABLES).expect("valid table file");
    let only: Option<String> = std::env::args().nth(1);
    let insts: Vec<Instance> = ["tarragona", "census", "eia"]
        .iter()
        .filter_map(|id| data::load(id, &ColumnSelection::All).ok())
        .collect();
    for (row, label, build) in readings() {
        if only.as_deref().is_some_and(|o| o != row) {
            continue;
        }
        let mut matched = 0;
        let mut lines = Vec::new();
        for inst in &insts {
            let printed = tables[inst.name.as_str()][row]
                .as_array()
                .expect("row present");
            let mut cells = Vec::new();
            for (k, cell) in KS.iter().zip(printed) {
                let text = cell.as_str().expect("string cell");
                let decimals = text.split('.').nth(1).map_or(0, str::len) as i32;
                let want: f64 = text.parse().expect("number");
                let groups = build(inst, *k);
                let il = inst.il(Partition::from_groups(inst, &groups)
                    .expect("partition")
                    .sse());
                let ok = (il - want).abs() <= 0.5 * 10f64.powi(-decimals) + 1e-12;
                matched += ok as usize;
                cells.push(format!("k={k}:{il:.5}{}{text}", if ok { "=" } else { "!" }));
            }
            lines.push(format!("  {:<10} {}", inst.name, cells.join(" ")));
        }
        println!("{row} {label}: {matched}/{} cells", 6 * insts.len());
        for l in lines {
            println!("{l}");
        }
    }
}
