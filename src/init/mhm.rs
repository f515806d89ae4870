//! # MHM and projection family (orders x cuts)
//!
//! Orders cut into groups: a record order (a score, a heuristic's group order or a path)
//! cut optimally (MHM) or into fixed runs of k (PROJ), and the pairwise-systematic methods.
//!
//! ## Complexity
//! See each method's module.
//!
//! ## References
//! See each method's module.

pub mod mhm_cbfs;
pub mod mhm_md;
pub mod mhm_mdav;
pub mod mhm_npn;
pub mod mhm_pc1;
pub mod mhm_var;
pub mod mhm_zsum;
pub mod orders;
pub mod pairwise_systematic;
pub mod proj_pc1;
pub mod proj_var;
pub mod proj_zsum;
pub mod ps_meansort;
pub mod ps_multidsort;
