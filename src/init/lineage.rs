//! # MDAV-lineage family
//!
//! The MDAV lineage: the engine (selection x growth x frame x leftover rules), its
//! rules, the methods that are one set of rules, and the seed-and-grow methods beside it.
//!
//! ## Complexity
//! See each method's module.
//!
//! ## References
//! See each method's module.

pub mod cbfs;
pub mod cbfs_nn;
pub(crate) mod dba;
pub(crate) mod dbfs;
pub mod engine;
pub mod growth;
pub mod gsms;
pub(crate) mod md;
pub mod mdav;
pub mod mdav1;
pub(crate) mod mdav2k;
pub mod mdav_a1;
pub mod mdav_generic;
pub mod mdav_nc;
pub mod mdav_single;
pub mod rule_method;
pub(crate) mod split_large;
pub mod tfrp;
pub(crate) mod tfrp_nc;
pub(crate) mod vmdav;
