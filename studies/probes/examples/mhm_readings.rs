//! Compare the readings of the MHM orders with the values that Kabir et al. (2015, Tables
//! VI-VIII) quote from Domingo-Ferrer et al. (2006): for each row and reading, the IL per
//! data set and k and how many cells match the printed value to its printed digits.
//!
//! `cargo run --release --example mhm_readings` (needs ../shared/instances).

use microagg::data::{self, ColumnSelection, Instance};
use microagg::init::lineage::growth::Growth;
use microagg::init::mhm::orders::{
    cbfs_trace, cut_order, md_trace, mdav_trace, npn_order, Cut, GroupOrderReading, GroupTrace,
    LeftoverPlace, MdavFrame, NpnStart, Sequence,
};

/// (data set, row, [k = 3, 5, 10] as printed; "" = not printed).
const PUBLISHED: &[(&str, &str, [&str; 3])] = &[
    ("tarragona", "MDAV-MHM", ["16.9326", "22.4617", "33.1923"]),
    ("tarragona", "MD-MHM", ["16.9829", "22.5269", "33.1834"]),
    ("tarragona", "CBFS-MHM", ["16.9714", "22.8227", "33.2188"]),
    ("tarragona", "NPN-MHM", ["17.3949", "27.0213", "40.1831"]),
    ("census", "MDAV-MHM", ["5.6523", "9.0870", "14.2239"]),
    ("census", "MD-MHM", ["5.69724", "8.98594", "14.3965"]),
    ("census", "CBFS-MHM", ["5.6734", "8.8942", "13.8925"]),
    ("census", "NPN-MHM", ["6.3498", "11.3443", "18.7335"]),
    ("eia", "MDAV-MHM", ["0.4081", "1.2563", "3.7725"]),
    ("eia", "MD-MHM", ["0.4422", "1.2627", "3.6374"]),
    ("eia", "NPN-MHM", ["0.5525", "0.9602", "2.3188"]),
];
const KS: [usize; 3] = [3, 5, 10];

/// An order builder: (instance, k) -> record order.
type OrderFn = Box<dyn Fn(&Instance, usize) -> Vec<usize>>;

fn matches(il: f64, printed: &str) -> bool {
    let decimals = printed.split('.').nth(1).map_or(0, str::len) as i32;
    let p: f64 = printed.parse().unwrap();
    (il - p).abs() <= 0.5 * 10f64.powi(-decimals) + 1e-12
}

/// The information loss of MHM's optimal cut of `order` at group size `k`.
fn mhm_il(inst: &Instance, k: usize, order: &[usize]) -> f64 {
    let problem = microagg::method::Problem::new(inst, k).unwrap();
    let p = cut_order("mhm", &problem, order, Cut::Optimal).unwrap();
    inst.il(p.sse())
}

/// Whether MHM's optimal cut of `order` reproduces the `printed` IL, and its table cell
/// ` SET/K: IL (PRINTED)`, starred when it does.
fn mhm_cell(
    inst: &Instance,
    set: &str,
    k: usize,
    order: &[usize],
    printed: &str,
) -> (bool, String) {
    let il = mhm_il(inst, k, order);
    let ok = matches(il, printed);
    (
        ok,
        format!(
            " {set}/{k}: {il:.4} ({printed}){}",
            if ok { "*" } else { "" }
        ),
    )
}

fn readings() -> Vec<(String, GroupOrderReading)> {
    let mut out = Vec::new();
    for sequence in [
        Sequence::Creation,
        Sequence::TwoEnded,
        Sequence::Chain,
        Sequence::SortedCenters,
    ] {
        for reversed_within in [false, true] {
            if sequence == Sequence::Chain && reversed_within {
                continue;
            }
            for leftover in [LeftoverPlace::JoinNearestGroup, LeftoverPlace::AsBlock] {
                out.push((
                    format!("{sequence:?} rev={reversed_within} {leftover:?}"),
                    GroupOrderReading {
                        sequence,
                        reversed_within,
                        leftover,
                    },
                ));
            }
        }
    }
    out
}

fn main() {
    let sets: Vec<(&str, Instance)> = ["tarragona", "census", "eia"]
        .iter()
        .map(|s| (*s, data::load(s, &ColumnSelection::All).expect("CASC data")))
        .collect();
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).is_some_and(|a| a == "npn-starts") {
        npn_starts(&args[2], args[3].parse().unwrap(), &args[4]);
        return;
    }
    let only: Option<String> = args.get(1).cloned();
    if only.as_deref() == Some("scaled") {
        other_scalings(&sets);
        return;
    }
    let rows = [
        "MDAV-MHM",
        "MDAV(generic)-MHM",
        "MD-MHM",
        "CBFS-MHM",
        "CBFS(NN)-MHM",
        "NPN-MHM",
    ];
    for row in rows {
        if only.as_deref().is_some_and(|o| !row.starts_with(o)) {
            continue;
        }
        let published_row = if row.starts_with("MDAV") {
            "MDAV-MHM"
        } else if row.starts_with("CBFS") {
            "CBFS-MHM"
        } else {
            row
        };
        let variants: Vec<(String, OrderFn)> = if row == "NPN-MHM" {
            [
                NpnStart::FarthestFromCentroid,
                NpnStart::FarthestFromFarthest,
            ]
            .into_iter()
            .map(|s| {
                (
                    format!("{s:?}"),
                    Box::new(move |i: &Instance, _k| npn_order(i, s)) as OrderFn,
                )
            })
            .collect()
        } else {
            readings()
                .into_iter()
                .map(|(name, r)| {
                    let f: OrderFn = match row {
                        "MDAV-MHM" => Box::new(move |i: &Instance, k| {
                            mdav_trace(i, k, MdavFrame::WhileTwoK).order(i, k, r)
                        }),
                        "MDAV(generic)-MHM" => Box::new(move |i: &Instance, k| {
                            mdav_trace(i, k, MdavFrame::Generic).order(i, k, r)
                        }),
                        "MD-MHM" => Box::new(move |i: &Instance, k| {
                            let t: GroupTrace = md_trace(i, k);
                            t.order(i, k, r)
                        }),
                        "CBFS-MHM" => Box::new(move |i: &Instance, k| {
                            cbfs_trace(i, k, Growth::NearestToCentroid).order(i, k, r)
                        }),
                        _ => Box::new(move |i: &Instance, k| {
                            cbfs_trace(i, k, Growth::NearestNeighbours).order(i, k, r)
                        }),
                    };
                    (name, f)
                })
                .collect()
        };
        for (name, order_of) in &variants {
            let mut hits = 0;
            let mut cells = 0;
            let mut line = String::new();
            for (set, inst) in &sets {
                let Some((_, _, printed)) = PUBLISHED
                    .iter()
                    .find(|(s, r, _)| s == set && *r == published_row)
                else {
                    continue;
                };
                for (c, &k) in KS.iter().enumerate() {
                    let order = order_of(inst, k);
                    let (ok, cell) = mhm_cell(inst, set, k, &order, printed[c]);
                    cells += 1;
                    hits += ok as usize;
                    line.push_str(&cell);
                }
            }
            println!("{row:18} {name:50} {hits}/{cells}{line}");
        }
    }
}

/// `mhm_readings npn-starts SET K PRINTED`: every start record whose NPN order reproduces
/// the printed value.
fn npn_starts(set: &str, k: usize, printed: &str) {
    let inst = data::load(set, &ColumnSelection::All).expect("CASC data");
    let mut hits = Vec::new();
    let mut best = (f64::INFINITY, 0);
    let p: f64 = printed.parse().unwrap();
    for first in 0..inst.n {
        let order = microagg::init::mhm::orders::npn_order_from(&inst, first);
        let il = mhm_il(&inst, k, &order);
        if (il - p).abs() < best.0 {
            best = ((il - p).abs(), first);
        }
        if matches(il, printed) {
            hits.push(first);
        }
    }
    println!(
        "{set} k={k} printed {printed}: {} starts match: {hits:?}; closest start {} (|diff| {:.5})",
        hits.len(),
        best.1,
        best.0
    );
}

/// `mhm_readings scaled`: the NPN and MDAV orders computed on other scalings of the data
/// (raw values, min-max ranges), the segmentation and IL on z-scores as always.
fn other_scalings(sets: &[(&str, Instance)]) {
    for scaling in ["raw", "minmax"] {
        for row in ["NPN-MHM", "MDAV-MHM", "MD-MHM"] {
            for start in [
                NpnStart::FarthestFromCentroid,
                NpnStart::FarthestFromFarthest,
            ] {
                if row != "NPN-MHM" && start == NpnStart::FarthestFromFarthest {
                    continue;
                }
                let mut line = String::new();
                let mut hits = 0;
                for (set, inst) in sets {
                    let Some((_, _, printed)) =
                        PUBLISHED.iter().find(|(s, r, _)| s == set && *r == row)
                    else {
                        continue;
                    };
                    let mut other = inst.clone();
                    let d = inst.d;
                    for j in 0..d {
                        let col: Vec<f64> = (0..inst.n).map(|i| inst.raw[i * d + j]).collect();
                        let (lo, hi) = col
                            .iter()
                            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                                (a.min(v), b.max(v))
                            });
                        for (i, v) in col.iter().enumerate() {
                            other.z[i * d + j] = if scaling == "raw" {
                                *v
                            } else {
                                (v - lo) / (hi - lo)
                            };
                        }
                    }
                    for (c, &k) in KS.iter().enumerate() {
                        let order = match row {
                            "NPN-MHM" => npn_order(&other, start),
                            "MDAV-MHM" => mdav_trace(&other, k, MdavFrame::WhileTwoK).order(
                                &other,
                                k,
                                GroupOrderReading::CHOSEN,
                            ),
                            _ => md_trace(&other, k).order(&other, k, GroupOrderReading::CHOSEN),
                        };
                        let (ok, cell) = mhm_cell(inst, set, k, &order, printed[c]);
                        hits += ok as usize;
                        line.push_str(&cell);
                    }
                }
                println!("{scaling:7} {row:9} {start:?} {hits}{line}");
            }
        }
    }
}
