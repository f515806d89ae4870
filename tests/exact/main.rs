//! Integration tests of the exact solvers: the subset DP and set partitioning against
//! brute force, "proven optimal" as a proof, branch-and-price and its cuts, the one-shot
//! MIP models, set partitioning over a pool of groups, and the reduced-cost dive.
//!
//! One test binary, a module per topic; `common` holds the helpers every binary shares,
//! `bnp_support` the steps the branch-and-price suites repeat.

mod bnp;
mod bnp_big_cuts;
mod bnp_count_branching;
mod bnp_count_row;
mod bnp_incumbent_box;
mod bnp_rank1;
mod bnp_rc_pool;
mod bnp_strong_branching;
mod bnp_support;
#[path = "../common/mod.rs"]
mod common;
mod exact;
mod exact_proofs;
mod merge;
mod models;
mod rc_dive;
