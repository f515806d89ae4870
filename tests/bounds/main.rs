//! Integration tests of the lower bounds: the nn bound, column generation and its phases,
//! cuts and anchors, the `auto` bound, bound certificates, the least reduced cost in exact
//! arithmetic, the weighted bounds, and the length lint of every function in `src` and
//! `solvers/src`.
//!
//! One test binary, a module per topic; `common` holds the helpers every binary shares.

mod bound_auto;
mod bound_certificates;
mod bounds;
mod colgen;
mod colgen_aggregation;
mod colgen_anchors;
mod colgen_cuts;
mod colgen_master_upper;
mod colgen_phases;
mod colgen_pool_master;
mod colgen_signed;
#[path = "../common/mod.rs"]
mod common;
mod function_length;
mod least_rc_margin;
mod weights_bounds;
mod weights_colgen;
