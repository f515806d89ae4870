//! # The phases of a column-generation run
//!
//! One file per phase, each with the contract of [`super::schedule::Phase`]: `run(state,
//! budget, obs)` reads and changes the run's [`super::state::ColgenState`], ends by its
//! budget's deadline, reports to the observer and takes every better certified value
//! through the state (so the bound stays the best certified one, proofs/P09). A phase
//! whose input is missing (no certified centre, no final duals) does nothing.
//!
//! ## Complexity
//! See each phase.
//!
//! ## References
//! See each phase.

pub mod aggregate;
pub mod box_ascent;
pub mod certified_smoothing;
pub mod column_generation;
pub mod cut_round;
pub mod final_evaluations;
pub mod final_solve;
pub mod incumbent_box;
pub mod lp_segment;
pub mod nn_ascent;
pub mod pool_master;
pub mod push_project;
pub mod slack_push;
pub mod tighten;
