//! # Render
//!
//! What the command line prints for one result, kept out of the command line itself: the
//! record of a pipeline run ([`run`]), of a bound and of its verification ([`bound`]), of
//! an exact solve ([`exact`]), of a labels check (`check`) and the registry listing
//! ([`list`]). Each result has a text form (one line or a short block, for people) and a
//! JSON form (one object per line, for scripts); both are built from the library's result
//! types and written by the caller through [`crate::output`].
//!
//! Summaries of a results folder (tables, figures) live in [`crate::report`]. Numbers that
//! may be of any magnitude print through `round_trip` or `decimal`.
//!
//! ## Complexity
//! Linear in the size of the result (stages, trace lines, registry entries).
//!
//! ## References
//! None.

pub mod bound;
pub(crate) mod check;
pub mod exact;
pub mod library;
pub mod list;
pub mod run;

/// `v` in its shortest form that reads back as the same `f64` (so two different values never
/// print alike), in scientific notation outside `[1e-5, 1e16)` (never hundreds of digits).
pub(crate) fn round_trip(v: f64) -> String {
    if v == 0.0 || !v.is_finite() || (1e-5..1e16).contains(&v.abs()) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

/// `v` with `places` decimals, in scientific notation with `places` decimals outside
/// `[1e-3, 1e15)` (so a huge value never prints hundreds of digits and a tiny one never
/// prints as 0).
pub(crate) fn decimal(v: f64, places: usize) -> String {
    if v == 0.0 || !v.is_finite() || (1e-3..1e15).contains(&v.abs()) {
        format!("{v:.places$}")
    } else {
        format!("{v:.places$e}")
    }
}
