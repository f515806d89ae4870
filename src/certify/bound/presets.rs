//! # Bound presets
//!
//! Named parameter sets of one bound, as data: a bound name and `KEY = VALUE` pairs of its
//! registry parameters, selected by `bound --preset NAME` and overridden by `--param
//! KEY=VALUE` or `--time-limit`. Most are the recipes that produced the certified bounds of
//! the benchmark library (`instances/library/library.toml`, each case's `[case.bound]
//! command`); `AUTO_BNP` holds the cut settings of the `auto` bound's bnp route, `AUTO_COLGEN` its
//! fallback. A preset
//! holds no data-specific file: each library recipe also started from the case's best-known
//! partition, `--start instances/library/<case>.labels`. The values are checked like any
//! `--param` when the preset is used (tests check every library preset against the
//! registry and its recipe, and `auto`'s against the registry).
//!
//! ## Complexity
//! O(presets) to look one up.
//!
//! ## References
//! `instances/library/library.toml`; `studies/study-colgen.txt` (the k = 10 recipe).

use crate::error::{Error, Result};
use serde_json::{Map, Value};

/// A named parameter set of one bound.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    pub name: &'static str,
    /// The registered bound it sets (`bound --method`).
    pub bound: &'static str,
    /// What it was made for, for `microagg list`.
    pub about: &'static str,
    /// `(KEY, VALUE)` as `bound --param KEY=VALUE` reads them.
    pub params: &'static [(&'static str, &'static str)],
}

impl Preset {
    /// The parameters as the map [`super::prepare`] reads.
    pub fn given(&self) -> Map<String, Value> {
        self.params
            .iter()
            .map(|(k, v)| (k.to_string(), crate::params::parse_value(v)))
            .collect()
    }
}

/// The library's bnp recipes: time limit, node limit, cut families and branching rule of each
/// case (`strong_branching = 0`, the most fractional pair, and `count_branching = false`
/// where the stored bound was made without them, before they became the bound's defaults).
const fn library_bnp(
    name: &'static str,
    about: &'static str,
    params: &'static [(&'static str, &'static str)],
) -> Preset {
    Preset {
        name,
        bound: "bnp",
        about,
        params,
    }
}

/// The name of the preset `auto` runs `bnp` with (k <= 5), its time limit aside.
pub(crate) const AUTO_BNP: &str = "auto-bnp";

/// The name of the preset of the colgen run that the guard of `auto`'s bnp route starts
/// when bnp certified nothing above nn ([`super::bnp_guard`]), its time limit aside.
pub(crate) const AUTO_COLGEN: &str = "auto-colgen";

/// Every preset, in the order `microagg list` prints them.
pub(crate) const PRESETS: &[Preset] = &[
    library_bnp(
        "tarragona-k3",
        "the stored branch-and-price bound of Tarragona k = 3",
        &[
            ("time_limit", "1800"),
            ("rank1_cuts", "true"),
            ("big_cuts", "24"),
            ("max_cuts", "8000"),
            ("strong_branching", "8"),
            ("count_branching", "false"),
        ],
    ),
    library_bnp(
        "tarragona-k4",
        "the stored branch-and-price bound of Tarragona k = 4",
        &[
            ("time_limit", "600"),
            ("strong_branching", "0"),
            ("count_branching", "false"),
        ],
    ),
    library_bnp(
        "tarragona-k5",
        "the stored branch-and-price bound of Tarragona k = 5",
        &[
            ("time_limit", "1200"),
            ("rank1_cuts", "true"),
            ("count_row", "true"),
            ("strong_branching", "0"),
            ("count_branching", "false"),
        ],
    ),
    library_bnp(
        "census-k3",
        "the stored branch-and-price bound of Census k = 3 (proves the best-known partition optimal)",
        &[
            ("time_limit", "7200"),
            ("rank1_cuts", "true"),
            ("big_cuts", "24"),
            ("max_cuts", "12000"),
            ("strong_branching", "0"),
            ("count_branching", "false"),
        ],
    ),
    library_bnp(
        "census-k4",
        "the stored branch-and-price bound of Census k = 4",
        &[
            ("time_limit", "1800"),
            ("rank1_cuts", "true"),
            ("big_cuts", "24"),
            ("strong_branching", "0"),
            ("count_branching", "true"),
        ],
    ),
    library_bnp(
        "census-k5",
        "the stored branch-and-price bound of Census k = 5",
        &[
            ("time_limit", "1800"),
            ("rank1_cuts", "true"),
            ("big_cuts", "24"),
            ("strong_branching", "8"),
            ("count_branching", "true"),
        ],
    ),
    library_bnp(
        "eia-k3",
        "the stored branch-and-price bound of EIA k = 3 (proves the best-known partition optimal)",
        &[
            ("time_limit", "600"),
            ("rank1_cuts", "true"),
            ("big_cuts", "24"),
            ("strong_branching", "0"),
            ("count_branching", "false"),
        ],
    ),
    library_bnp(
        "eia-k4",
        "the stored branch-and-price bound of EIA k = 4 (proves the best-known partition optimal)",
        &[
            ("time_limit", "1800"),
            ("rank1_cuts", "true"),
            ("big_cuts", "24"),
            ("max_cuts", "12000"),
            ("strong_branching", "8"),
            ("count_branching", "false"),
        ],
    ),
    library_bnp(
        "eia-k5",
        "the stored branch-and-price bound of EIA k = 5",
        &[
            ("time_limit", "1800"),
            ("rank1_cuts", "true"),
            ("big_cuts", "24"),
            ("max_cuts", "12000"),
            ("strong_branching", "8"),
            ("count_branching", "false"),
        ],
    ),
    Preset {
        name: "eia-k10",
        bound: "colgen",
        about: "the stored column-generation bound of EIA k = 10 (the recipe ran with --threads 1): nn line search, box step, interior point master, then line search, push-and-project, slack rounds and tightening with covering-LP projections",
        params: &[
            ("time_limit", "1800"),
            ("nn_ascent", "0.2"),
            ("box_width", "0.3"),
            ("lp_segment", "true"),
            ("push_project", "true"),
            ("ipm", "true"),
            ("anchor_threshold", "0.005"),
            ("stop_early", "true"),
            ("tighten_fraction", "0.05"),
            ("final_fraction", "0.8"),
            ("slack_push", "0.5"),
            ("max_iterations", "20000"),
            ("lp_projection", "true"),
        ],
    },
    Preset {
        name: AUTO_BNP,
        bound: "bnp",
        about: "the cut settings the auto bound uses for k <= 5 (rank-1 cuts on 4 and 5 records, subset-row cuts on fractional blocks of up to 24 records, next to the default triples; room for 8000 cuts in all)",
        params: &[
            ("rank1_cuts", "true"),
            ("big_cuts", "24"),
            ("max_cuts", "8000"),
        ],
    },
    Preset {
        name: AUTO_COLGEN,
        bound: "colgen",
        about: "the column generation run that the auto bound gives the rest of its time when its bnp route certified nothing above nn by 2/3 of its time: the line search from the nn duals first (it ends by itself after at most 40 points, within 90 % of the time), then column generation from the incumbent's groups",
        params: &[("nn_ascent", "0.9")],
    },
];

/// The bound and its parameters asked for by `method` and/or `preset`, `params` (e.g. from
/// `--param KEY=VALUE`) overriding the preset's; without either, `nn`. A preset of another
/// bound than `method` is an error.
pub fn resolve(
    method: Option<&str>,
    preset: Option<&str>,
    params: Map<String, Value>,
) -> Result<(&'static super::BoundInfo, Map<String, Value>)> {
    let preset = preset.map(find).transpose()?;
    let name = match (method, preset) {
        (Some(m), Some(p)) if m != p.bound => {
            return Err(Error::usage(format!(
                "preset {} sets bound {}, not {m}",
                p.name, p.bound
            )))
        }
        (Some(m), _) => m,
        (None, Some(p)) => p.bound,
        (None, None) => "nn",
    };
    let info = super::find(name)?;
    let mut given = preset.map(Preset::given).unwrap_or_default();
    given.extend(params);
    Ok((info, given))
}

/// The preset `name`, or an error listing them.
pub fn find(name: &str) -> Result<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name).ok_or_else(|| {
        let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        Error::usage(format!(
            "unknown bound preset '{name}'; presets: {}",
            names.join(", ")
        ))
    })
}
