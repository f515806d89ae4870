//! Integration tests of the local search: conformance of every registered refiner and of
//! every part of the search kit, the ILS variants, the moves' deltas, the search trace and
//! weighted descent.
//!
//! One test binary, a module per topic; `common` holds the helpers every binary shares.

#[path = "../common/mod.rs"]
mod common;
mod exact_lns;
mod ils_variants;
mod kit_conformance;
mod moves_props;
mod refiners;
mod trace;
mod weights_search;
