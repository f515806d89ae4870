//! # Certify: lower bounds, certificates and exact solves
//!
//! What says how far a partition can be from the optimum: the registered lower bounds
//! ([`bound`]: nn, column generation, cuts, branch-and-price, `auto`), the certificates
//! anyone can re-check without HiGHS ([`certificate`] for Lagrangian bounds,
//! [`bnp_certificate`] for branch-and-price trees), exact solves from the workbench
//! ([`exact`]) and the benchmark library of best-known partitions and certified bounds
//! ([`library`]). The kernels on plain arrays live in the `microagg-solvers` crate.
//!
//! ## Complexity
//! See each module.
//!
//! ## References
//! proofs/P06-P24 and P40-P43 (each module names its own).

pub mod bnp_certificate;
pub mod bound;
pub mod certificate;
pub mod exact;
pub mod library;
