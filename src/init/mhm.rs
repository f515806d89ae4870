//! # MHM and projection family (orders x cuts)
//!
//! Orders cut into groups: a record order (a score, a heuristic's group order or a path)
//! cut optimally (MHM) or into fixed runs of k (PROJ), one table of methods
//! (`order_cut`) over the orders of [`orders`]; and the pairwise-systematic methods.
//!
//! ## Complexity
//! See each method's module.
//!
//! ## References
//! See each method's module.

pub(crate) mod order_cut;
pub mod orders;
pub(crate) mod pairwise_systematic;
pub(crate) mod ps_meansort;
pub(crate) mod ps_multidsort;
