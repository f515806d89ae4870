//! # The `auto` bound: the best certified bound in a time limit
//!
//! One entry for a user who asks "the best lower bound in T seconds" on data nobody tuned
//! for. It chooses its route from n, k and T ([`choose_route`]):
//!
//! | case | route | why |
//! |---|---|---|
//! | `T <` `NN_ONLY_SECONDS` | `nn` (the raised nn bound) | nothing else finishes a master in that time |
//! | `n >` the local limit (default `pricing::MAX_RECORDS`) | `local` ([`super::local_route`]) | column generation needs the O(n^2) distance matrix; block duals priced locally beat nn (proofs/P23) |
//! | `k <= 5` | `bnp` with the [`SMALL_K_PRESET`] settings (rank-1 cuts, cuts on fractional blocks of up to 24 records), under the guard of [`super::bnp_guard`]: when bnp has certified nothing above nn by [`GUARD_CHECKPOINT`] of its time, it stops and `colgen` (`super::presets::AUTO_COLGEN`: the line search from the nn duals, then column generation) gets the rest | root column generation, cuts, then branching; rank-1 and block cuts raise the root well above its LP value where triples alone do not (studies/study-auto-table-600.txt); where bnp's root master hardly moves (2000 uniform or heavy-tailed records, d = 10, k = 5), the line search needs no LP and colgen's master converges |
//! | `k >= 6` | `colgen` with the `LARGE_K_PRESET` settings (`SHORT_SHARES` of the time below `SHORT_LIMIT_SECONDS`) | the settings of the stored k = 10 certificates (line search from the nn duals, box step, push-and-project, slack rounds, tightening) |
//!
//! Without a start partition, an incumbent comes first from the search kit
//! (`INCUMBENT_PIPELINE` for `INCUMBENT_SHARE` of T) and seeds the master. Every
//! route starts from the raised nn bound (`nn-raised`, proofs/P25, seconds at any size),
//! and the value is never below it; the outcome names the route and the method that
//! produced the value (`produced_by`: `nn-raised` when no route beat it, `colgen` when
//! the guard's fallback gave it), and at k = 10 the colgen details carry the master value beside the
//! certified bound (`lp_value`, `converged`) for the split of the gap.
//!
//! ## Complexity
//! That of the route, bounded by T (the nn bound's neighbour lists run to completion).
//!
//! ## References
//! See the routes' modules and proofs/P06, P09, P17, P20, P23.

use super::bnp_guard::{self, GUARD_CHECKPOINT};
use super::extras::{Certificate, Incumbent};
use super::local_route::{self, LocalRouteOptions};
use super::registry::{entry, About, BoundInfo, BoundRun, Computed, LowerBound};
use crate::data::Instance;
use crate::error::Result;
use crate::pipeline::Pipeline;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Below this limit (seconds) `auto` computes the nn bound only.
pub(crate) const NN_ONLY_SECONDS: f64 = 2.0;

/// Largest k that goes to branch-and-price (sizes up to 2k - 1 = 9 price fast).
pub(crate) const BNP_MAX_K: usize = 5;

/// The preset whose bnp settings `auto` uses for k <= 5, its time limit aside: rank-1 cuts
/// on 4 and 5 records and subset-row cuts `1/q` on fractional blocks of at most 24 records
/// (proofs/P21 Part F, as in the stored EIA k = 3..5 recipes), next to the default triples,
/// within the default cut budget ([`super::presets`]).
pub const SMALL_K_PRESET: &str = super::presets::AUTO_BNP;

/// The search-kit pipeline of the incumbent when no start is given.
pub(crate) const INCUMBENT_PIPELINE: &str = "mdav+decompose-shrink+ils";

/// Share of the time limit the incumbent pipeline gets.
pub(crate) const INCUMBENT_SHARE: f64 = 0.2;

/// The preset whose colgen settings (all but its time limit and iteration cap) `auto` uses
/// for k >= 6: the recipe of the stored EIA k = 10 certificate ([`super::presets`]).
pub(crate) const LARGE_K_PRESET: &str = "eia-k10";

/// Below this many seconds for the colgen route, [`SHORT_SHARES`] replace the preset's time
/// shares: the preset's nn line search share (0.2) then ends where its main phase ends, so
/// column generation got no time and the run stopped after the line search (EIA k = 10 with
/// T = 60: the bound at 22.7 s).
pub(crate) const SHORT_LIMIT_SECONDS: f64 = 300.0;

/// The time shares of the colgen route below [`SHORT_LIMIT_SECONDS`]: half the time for the
/// nn line search (the best use of a short run at k = 10, where one exact check takes seconds
/// and the master's duals are far from converged), the final 45 % for the line search toward
/// the master's duals, push-and-project, slack rounds and tightening.
pub(crate) const SHORT_SHARES: &[(&str, f64)] = &[
    ("nn_ascent", 0.5),
    ("final_fraction", 0.45),
    ("slack_push", 0.2),
    ("tighten_fraction", 0.05),
];

/// The bnp parameters of `auto` for k <= 5: the [`SMALL_K_PRESET`] settings.
fn small_k_params() -> Result<Map<String, Value>> {
    Ok(super::presets::find(SMALL_K_PRESET)?.given())
}

/// The colgen parameters of `auto` for k >= 6 with `seconds` left: the [`LARGE_K_PRESET`]
/// settings without its iteration cap, with [`SHORT_SHARES`] below [`SHORT_LIMIT_SECONDS`].
fn large_k_params(seconds: f64) -> Result<Map<String, Value>> {
    let mut given = super::presets::find(LARGE_K_PRESET)?.given();
    given.remove("max_iterations");
    if seconds < SHORT_LIMIT_SECONDS {
        for &(key, share) in SHORT_SHARES {
            given.insert(key.into(), json!(share));
        }
    }
    Ok(given)
}

/// The `auto` bound.
pub struct Auto;

pub(crate) const ENTRY: BoundInfo = entry::<Auto>(About {
    name: "auto",
    summary: "the best certified bound in the time limit, never below nn-raised, route chosen from n, k and T: nn-raised alone (T < 2 s), bnp with the auto-bnp preset's cut settings (k <= 5; the nn line search then column generation instead when bnp certifies nothing above nn in 2/3 of its time), colgen with the eia-k10 preset's settings (k >= 6), or block duals priced locally (n > 8000); an incumbent from the search kit when no start is given",
    certified: "always, by the route taken (proofs/P06, P25, P09, P17, P20; P23 for n > 8000); the bnp and colgen routes (and the guard's colgen) write their certificates",
    certificate: true,
    incumbent: true,
    weighted: None,
});

/// The parameters of `auto`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AutoParams {
    pub time_limit: f64,
    pub start: Option<PathBuf>,
}

impl Default for AutoParams {
    fn default() -> Self {
        AutoParams {
            time_limit: AUTO_DEFAULT_SECONDS,
            start: None,
        }
    }
}

impl crate::params::Params for AutoParams {
    const DOC: &'static [(&'static str, &'static str)] = &[
        ("time_limit", "wall-clock seconds for the whole bound, the incumbent search included; also chooses the route (below 2 s: nn only)"),
        ("start", "a labels file (one group label per record, every group of at least k) used as the incumbent and master seed instead of searching one (null: search one)"),
    ];

    fn check(&self) -> std::result::Result<(), String> {
        crate::search::check_time_limit(self.time_limit).map_err(|e| format!("time_limit {e}"))
    }
}

impl LowerBound for Auto {
    type Params = AutoParams;

    fn start_file(params: &AutoParams) -> Option<&PathBuf> {
        params.start.as_ref()
    }

    fn compute(params: &AutoParams, run: &mut BoundRun) -> Result<Computed> {
        let local_from = microagg_solvers::bounds::colgen::pricing::MAX_RECORDS;
        let a = auto_bound(run, params.time_limit, local_from)?;
        let mut details = a.details;
        details["produced_by"] = json!(a.produced_by);
        Ok(Computed {
            lower_bound: a.lower_bound,
            details,
            certificate: a.certificate,
            incumbent: a.incumbent,
        })
    }
}

/// Time limit of `auto` when none is given.
pub(crate) const AUTO_DEFAULT_SECONDS: f64 = 60.0;

/// The route `auto` takes (module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    Nn,
    Bnp,
    Colgen,
    Local,
}

impl Route {
    pub fn name(self) -> &'static str {
        match self {
            Route::Nn => "nn",
            Route::Bnp => "bnp",
            Route::Colgen => "colgen",
            Route::Local => "local",
        }
    }
}

/// The route for `n` records, groups of `k` and `seconds`, with column generation up to
/// `local_from` records (module doc).
pub fn choose_route(n: usize, k: usize, seconds: f64, local_from: usize) -> Route {
    if seconds < NN_ONLY_SECONDS || n < 2 * k {
        Route::Nn
    } else if n > local_from {
        Route::Local
    } else if k <= BNP_MAX_K {
        Route::Bnp
    } else {
        Route::Colgen
    }
}

/// What `auto` returns: the value (never below nn), the route, the producer, details, the
/// route's certificate (or why none) and the best partition met.
pub struct AutoOutcome {
    pub lower_bound: f64,
    pub route: Route,
    pub produced_by: String,
    pub details: Value,
    pub certificate: std::result::Result<Certificate, String>,
    pub incumbent: Option<Incumbent>,
}

/// The `auto` bound of `run`'s instance in `seconds` (module doc); `local_from` is the
/// largest n column generation is tried on (`pricing::MAX_RECORDS` in the registry; lower
/// in tests).
pub fn auto_bound(run: &mut BoundRun, seconds: f64, local_from: usize) -> Result<AutoOutcome> {
    auto_bound_with(run, seconds, local_from, GUARD_CHECKPOINT)
}

/// [`auto_bound`] with the bnp guard's checkpoint at `checkpoint` of bnp's time
/// ([`GUARD_CHECKPOINT`] in [`auto_bound`]; 0 fires it at once, above 1 never).
pub fn auto_bound_with(
    run: &mut BoundRun,
    seconds: f64,
    local_from: usize,
    checkpoint: f64,
) -> Result<AutoOutcome> {
    let started = Instant::now();
    let (inst, k) = (run.inst, run.k);
    let route = choose_route(inst.n, k, seconds, local_from);
    let floor = inner("nn-raised", Map::new(), None, run)?;
    let nn = floor.details["nn"]
        .as_f64()
        .expect("nn-raised reports its nn value");
    let mut out = AutoOutcome {
        lower_bound: floor.lower_bound,
        route,
        produced_by: if floor.lower_bound > nn {
            "nn-raised"
        } else {
            "nn"
        }
        .into(),
        details: json!({
            "route": route.name(),
            "nn": nn,
            "nn_raised": floor.lower_bound,
            "time_limit": seconds,
        }),
        certificate: Err(
            "bound auto's value is the nn or raised nn bound, which write no certificate".into(),
        ),
        incumbent: None,
    };
    if route == Route::Nn {
        return Ok(out);
    }
    let incumbent = incumbent(inst, k, seconds, run.start, run.interrupt)?;
    out.details["incumbent_sse"] = json!(incumbent.sse);
    out.details["incumbent_from"] = json!(if run.start.is_some() {
        "start"
    } else {
        INCUMBENT_PIPELINE
    });
    let left = (seconds - started.elapsed().as_secs_f64()).max(1e-3);
    match route {
        Route::Local => {
            let r = local_route::compute(
                inst,
                k,
                nn,
                left,
                &LocalRouteOptions::default(),
                run.interrupt,
            )?;
            out.details["local"] = r.details;
            if r.lower_bound > out.lower_bound {
                out.lower_bound = r.lower_bound;
                out.produced_by = "local-lagrangian".into();
            }
            out.certificate = Err(
                "the local route writes no certificate (proofs/P23 recomputes it from the duals)"
                    .into(),
            );
        }
        Route::Bnp | Route::Colgen => {
            let mut given = match route {
                Route::Colgen => large_k_params(left)?,
                _ => small_k_params()?,
            };
            given.insert("time_limit".into(), json!(left));
            out.details["inner_params"] = Value::Object(given.clone());
            let labels = Some(&incumbent.labels[..]);
            let (b, fired) = if route == Route::Bnp {
                let g = bnp_guard::run_bnp(run, nn, left, checkpoint, |r| {
                    inner(route.name(), given, labels, r)
                })?;
                out.details["guard"] = json!({
                    "checkpoint": checkpoint,
                    "fired": g.fired,
                    "bnp_bound": g.bnp.lower_bound,
                });
                (g.bnp, g.fired)
            } else {
                (inner(route.name(), given, labels, run)?, false)
            };
            let by = super::producer(route.name(), b.lower_bound, &b.details).to_string();
            out.details["inner"] = b.details;
            if b.lower_bound > out.lower_bound {
                out.lower_bound = b.lower_bound;
                out.produced_by = by;
            }
            out.certificate = b.certificate;
            // A proven incumbent too when its SSE equals the start's (its copy carries the
            // proof; the two SSEs are summed by different code and may differ in the last bit).
            let better = |i: &Incumbent| i.sse < incumbent.sse || i.proven_optimal;
            if let Some(inc) = b.incumbent.filter(better) {
                out.incumbent = Some(inc);
            }
            if fired && !run.interrupt.load(Ordering::SeqCst) {
                let left = (seconds - started.elapsed().as_secs_f64()).max(1e-3);
                let best = out.incumbent.as_ref().unwrap_or(&incumbent);
                let given = bnp_guard::fallback_params(left)?;
                let cg = inner("colgen", given, Some(&best.labels), run)?;
                out.details["guard"]["colgen_bound"] = json!(cg.lower_bound);
                if cg.lower_bound > out.lower_bound {
                    out.lower_bound = cg.lower_bound;
                    out.produced_by = super::producer("colgen", cg.lower_bound, &cg.details).into();
                    out.certificate = cg.certificate;
                }
                out.details["guard"]["colgen"] = cg.details;
            }
        }
        Route::Nn => unreachable!("returned above"),
    }
    out.incumbent.get_or_insert(incumbent);
    out.details["interrupted"] = json!(run.interrupt.load(Ordering::SeqCst));
    Ok(out)
}

/// Bound `name` with parameters `given` (and a start partition) through the registry, with
/// `run`'s progress, interrupt and reports.
fn inner(
    name: &str,
    given: Map<String, Value>,
    start: Option<&[usize]>,
    run: &mut BoundRun,
) -> Result<Computed> {
    let mut prepared = super::find(name)?.prepare(&given)?;
    if let Some(labels) = start {
        prepared = prepared.with_start(labels.to_vec(), "the auto incumbent")?;
    }
    prepared.run(run.inst, run.k, run.show, run.interrupt, &mut *run.report)
}

/// The start partition: the given labels, or the search kit's [`INCUMBENT_PIPELINE`] for
/// [`INCUMBENT_SHARE`] of the limit (seed 0).
fn incumbent(
    inst: &Instance,
    k: usize,
    seconds: f64,
    start: Option<(&[usize], &str)>,
    interrupt: &AtomicBool,
) -> Result<Incumbent> {
    let labels = match start {
        Some((labels, source)) => {
            microagg_solvers::bounds::colgen::start_groups(labels, inst.n, k).map_err(|m| {
                crate::error::Error::usage(format!("bound auto: start partition {source}: {m}"))
            })?;
            labels.to_vec()
        }
        None => {
            let run = Pipeline::parse(INCUMBENT_PIPELINE, &[])?;
            let out = run.run(inst, k, 0, Some(seconds * INCUMBENT_SHARE), interrupt)?;
            out.partition.labels().to_vec()
        }
    };
    let sse = crate::partition::Partition::from_labels(inst, labels.clone())?.sse();
    Ok(Incumbent {
        labels,
        sse,
        proven_optimal: false,
    })
}
