//! # Random family
//!
//! Random and semi-random starts: a uniform random feasible partition, a semi-random
//! permutation cut optimally (also registered as RIMHM's initialisation, `rimhm`).
//!
//! ## Complexity
//! See each method's module.
//!
//! ## References
//! See each method's module.

pub mod random;
pub(crate) mod semirandom;
