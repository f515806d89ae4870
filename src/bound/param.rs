//! # Bound parameters
//!
//! The description of one parameter of a registered bound, in a file of its own so that the
//! parameter tables (`colgen_params`, `bnp_entry`) and the branch-and-price driver can use it
//! without importing the registry.

/// A parameter of a registered bound: its key (as `--bound-param KEY=VALUE` and in
/// [`BoundOptions::set`]), its default as text, and what it does.
#[derive(Debug, Clone, Copy)]
pub struct BoundParam {
    pub key: &'static str,
    pub default: &'static str,
    pub doc: &'static str,
}
