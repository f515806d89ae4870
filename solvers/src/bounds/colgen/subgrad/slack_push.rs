//! # Push-and-project along the start partition's slacks
//!
//! [`slack_push`] restarts push-and-project from the best point along the slack direction of
//! the best start partition, recomputed after each round, for at most [`SLACK_ROUNDS`]
//! rounds or until a round does not raise the bound.
//!
//! ## Complexity
//! At most [`SLACK_ROUNDS`] push-and-project runs ([`super::push_project_from`]).
//!
//! ## References
//! - studies/study-colgen.txt, section 18-slack.

use super::super::ascent::slack_direction;
use super::super::observer::ColgenObserver;
use super::super::pricing::Geometry;
use super::{push_project_from, Ascent, GroupPool, Projection};
use crate::deadline::Deadline;

/// Most restarts of [`slack_push`]: its study runs gained less than 1 % of the bound after
/// the third (study-colgen.txt 18-slack).
pub const SLACK_ROUNDS: usize = 4;

/// First step of each [`slack_push`] round along the slack direction (`t = 1` prices every
/// group of the partition at 0).
pub const SLACK_T_FIRST: f64 = 0.25;

/// Push-and-project in rounds along the slack direction of the partition `groups` (disjoint,
/// covering every record; [`slack_direction`]: each group's `SSE(S) - y(S)`
/// spread evenly over its members), recomputed at the best point after each round; from
/// `start = (y, value)`, `value` a valid bound certified at `y`. A fixed direction stalls
/// once its projections stop paying; the partition's slacks at the new point give a fresh
/// one. Each of at most [`SLACK_ROUNDS`] rounds gets the time left divided by the rounds
/// left; `pool` (seeded by the caller) keeps every group met across the rounds, so a new
/// round's projections avoid the groups that refuted the last one's candidates. A round
/// without a better certified value ends it. The reported bound is the best certified value (at least
/// `value`); the directions only choose the duals (proofs/P20, "Choosing the duals").
#[allow(clippy::too_many_arguments)]
pub fn slack_push<'a>(
    geo: &Geometry,
    x: &[f64],
    d: usize,
    start: (&[f64], f64),
    groups: &[Vec<u32>],
    pool: &mut GroupPool,
    projection: Projection,
    tau: f64,
    stop_early: bool,
    deadline: impl Into<Deadline<'a>>,
    obs: &mut dyn ColgenObserver,
) -> Ascent {
    let deadline: Deadline = deadline.into();
    let mut out = Ascent {
        lower_bound: start.1,
        duals: start.0.to_vec(),
        tau,
        iterations: 0,
        checks: Vec::new(),
    };
    for round in 0..SLACK_ROUNDS {
        if deadline.passed() {
            break;
        }
        let until = deadline.part(1.0 / (SLACK_ROUNDS - round) as f64);
        let h = slack_direction(x, d, groups, &out.duals);
        let asc = push_project_from(
            geo,
            d,
            (&out.duals, Some(out.lower_bound)),
            &h,
            SLACK_T_FIRST,
            tau,
            pool,
            projection,
            0.5,
            stop_early,
            until,
            obs,
        );
        out.iterations += asc.iterations;
        out.checks.extend(asc.checks);
        obs.detail(format_args!(
            "slack-push: round {round}: sum h {:.6}, best {:.6}",
            h.iter().sum::<f64>(),
            asc.lower_bound
        ));
        if asc.lower_bound <= out.lower_bound {
            break;
        }
        out.lower_bound = asc.lower_bound;
        out.duals = asc.duals;
    }
    out
}
