//! # Certified ascents on the medoid-anchored Lagrangian bound
//!
//! The anchored bound of proofs/P20, `LB(y) = sum y + (sum of the floor(n/k) smallest
//! min(0, L_r(y)))` with `L_r(y)` the least reduced cost of a group whose medoid is `r`, is
//! the Lagrangian dual function of "cover every record once with at most floor(n/k) groups
//! of distinct medoids" with the covering rows relaxed, so it is concave in `y` and
//! `s_i = 1 - #{chosen groups holding i}` is a supergradient at `y` when the chosen groups
//! are the per-medoid minimisers. Exact per-anchor pricing at k = 10 costs seconds per
//! call, so candidates are chosen on a *model*: the same function with `L_r` replaced by the
//! least reduced cost over a pool of groups (every negative group met by the heuristic
//! pricing from every record, [`super::pricing::heuristic`], and every negative group an
//! exact pricing returned), an upper estimate of `LB(y)`, not a bound.
//!
//! [`ascend`] is a box-step method (Marsten, Hogan and Blankenship 1975): inside a box of
//! half-width `delta` around the centre (the best certified point) it takes projected
//! subgradient steps on the model and keeps the point of the best model value; exact
//! per-anchor pricing certifies that candidate (with the anchor threshold `tau <= 0` of P20,
//! which charges every anchor at most `tau` and prunes the search against it). A better
//! certified value moves the centre there and widens the box (serious step); otherwise the
//! box halves, and the exact search's negative groups have refined the model (null step).
//! The reported bound is the best certified value over all evaluated points; nothing about
//! the ascent enters its proof (proofs/P20, "Choosing the duals").
//!
//! The techniques, one file each: the group pool and its projections ([`pool`]), the
//! certified check ([`check`]), the box-step ascent ([`box_step`]), push-and-project
//! ([`push_project`](mod@push_project)), its restarts along the start partition's slacks
//! ([`slack_push`](mod@slack_push)) and the re-certification at smaller thresholds
//! ([`tighten`](mod@tighten)).
//!
//! ## Complexity
//! Per iteration: the heuristic pricing from every record (O(n L k^2), L = pool size) and
//! one pass over the pool (O(sum of group sizes)); per box one per-anchor exact pricing
//! within its share (`check_share`) of the time left.
//!
//! ## References
//! - Marsten, R. E., Hogan, W. W. and Blankenship, J. W. (1975). The boxstep method for
//!   large-scale optimization. Operations Research 23(3), 389-405.
//! - Held, M., Wolfe, P. and Crowder, H. P. (1974). Validation of subgradient optimization.
//!   Mathematical Programming 6, 62-88.

pub mod box_step;
pub mod check;
pub mod pool;
pub mod push_project;
pub mod slack_push;
pub mod tighten;

pub use box_step::{ascend, Ascent, SubgradOptions};
#[cfg(test)]
pub(crate) use check::certify_check_budget;
pub use check::{certify, certify_check, certify_check_above, Check};
pub use pool::{GroupPool, Projection};
pub use push_project::{push_project, push_project_from};
pub use slack_push::{slack_push, SLACK_ROUNDS, SLACK_T_FIRST};
pub use tighten::{tighten, Tightened, TIGHTEN_FACTOR};
