//! # Render
//!
//! What the command line prints for one result, kept out of the command line itself: the
//! record of a pipeline run ([`run`]), of a bound and of its verification ([`bound`]), of
//! an exact solve ([`exact`]), of a labels check ([`check`]) and the registry listing
//! ([`list`]). Each result has a text form (one line or a short block, for people) and a
//! JSON form (one object per line, for scripts); both are built from the library's result
//! types and written by the caller through [`crate::output`].
//!
//! Summaries of a results folder (tables, figures) live in [`crate::report`].
//!
//! ## Complexity
//! Linear in the size of the result (stages, trace lines, registry entries).
//!
//! ## References
//! None.

pub mod bound;
pub mod check;
pub mod exact;
pub mod library;
pub mod list;
pub mod run;
