//! # The `bnp` entry of the bound registry
//!
//! Branch-price-and-cut ([`super::bnp`], proofs/P17) as a registered bound: its parameters
//! (time limit, root cut rounds, start labels) and the call that turns a run into a
//! [`super::BoundOutcome`]: the certified global bound (least leaf bound, rounded outward),
//! the run's figures as details ([`super::bnp::details`]), the incumbent's labels and the
//! branch-and-price certificate of the leaves ([`crate::bnp_certificate`], proofs/P18). Every
//! improvement of the incumbent or the bound goes to the caller's progress sink.
//!
//! ## Complexity
//! That of the search, bounded by its time limit; the certificate is O(leaves · n + cuts).
//!
//! ## References
//! See [`microagg_solvers::bnp`].

use super::extras::{BoundProgress, Certificate, Incumbent};
use super::param::BoundParam;
use super::{colgen_params, BoundOptions};
use crate::bnp_certificate::BnpCertificate;
use crate::data::Instance;
use crate::error::Result;
use microagg_solvers::bnp::BnpOptions;
use serde_json::Value;
use std::sync::atomic::AtomicBool;

/// The parameters of `bnp`.
pub const BNP_PARAMS: &[BoundParam] = &[
    BoundParam {
        key: "time_limit",
        default: "60",
        doc: "wall-clock seconds, the start pipeline included; the search returns its incumbent and bound when it ends (run --bound: the run's limit)",
    },
    BoundParam {
        key: "cuts",
        default: "50",
        doc: "rounds of subset-row cuts at the root, and one round at every other node; 0: no cuts anywhere (plain branch-and-price)",
    },
    colgen_params::COLGEN_START_PARAM,
    BoundParam {
        key: "max_nodes",
        default: "0",
        doc: "most nodes processed, the root included (0: no limit); fewer nodes leave fewer leaves, a smaller certificate",
    },
    BoundParam {
        key: "max_cuts",
        default: "4000",
        doc: "most subset-row cuts in all (0: the default); more can raise the root bound, at master time and certificate size",
    },
    BoundParam {
        key: "rank1_cuts",
        default: "false",
        doc: "also separate rank-1 cuts on 5 records (1/3 each) and 4 records (2/3, 1/3, 1/3, 1/3), proofs/P21; they share max_cuts",
    },
    BoundParam {
        key: "big_cuts",
        default: "0",
        doc: "also separate subset-row cuts 1/q (q = 2..9) on fractional blocks of at most this many records (2..=32), right side floor(|C|/q), proofs/P21 Part F; 0: off; they share max_cuts",
    },
    BoundParam {
        key: "count_row",
        default: "false",
        doc: "the group-count row sum x_S <= floor(n/k) in every node's master (proofs/P22); raises the LP where k does not divide n",
    },
];

/// What a `bnp` run gives the registry: bound, details, certificate (or why there is none)
/// and incumbent.
pub struct BnpOutcome {
    pub lower_bound: f64,
    pub details: Value,
    pub certificate: std::result::Result<Certificate, String>,
    pub incumbent: Incumbent,
}

/// Run branch-and-price for the registry (module doc).
pub fn compute(
    inst: &Instance,
    k: usize,
    time_limit: Option<f64>,
    options: &BoundOptions,
    interrupt: &AtomicBool,
    report: &mut dyn FnMut(&BoundProgress),
) -> Result<BnpOutcome> {
    let mut engine = BnpOptions::default();
    match options.cut_rounds {
        None => {}
        // No cuts: none at the root and none at the other nodes.
        Some(0) => (engine.cut_rounds, engine.node_cut_rounds) = (0, 0),
        Some(r) => engine.cut_rounds = r,
    }
    engine.enumerate = options.enumerate;
    engine.max_nodes = options.max_nodes;
    engine.rank1_cuts = options.rank1_cuts;
    engine.big_cut_records = options.big_cut_records;
    engine.count_row = options.count_row;
    if options.max_cuts > 0 {
        engine.max_cuts = options.max_cuts;
    }
    let run = super::bnp::run_with(
        inst,
        k,
        time_limit,
        options.start.as_deref(),
        &options.start_source,
        &engine,
        interrupt,
        report,
    )?;
    let mut details = super::bnp::details(inst, &run);
    details["start_labels"] = options.start.is_some().into();
    let certificate = BnpCertificate::from_result(inst, k, &run.result)
        .map(Certificate::BranchAndPrice)
        .map_err(|e| e.to_string());
    let r = run.result;
    Ok(BnpOutcome {
        lower_bound: r.lower_bound,
        details,
        certificate,
        incumbent: Incumbent {
            labels: r.labels,
            sse: r.sse,
            proven_optimal: r.proven_optimal,
        },
    })
}
