//! # Experiments
//!
//! One TOML file describes a study ([`suite`]); it expands into a run matrix with derived
//! seeds ([`expand`]), which [`runner`] executes in parallel across runs, writing one
//! JSON-lines [`record`] per run (with its search trace, thinned by `thin`, when the suite
//! asks for one). `microagg report` ([`crate::report`]) turns a directory of
//! records into tables and figures.
//!
//! ## Complexity
//! See the submodules.
//!
//! ## References
//! None.

pub mod bounds;
pub mod expand;
pub(crate) mod lock;
pub mod record;
pub mod runner;
pub mod suite;
pub(crate) mod thin;

pub use expand::{Plan, Run, Shard};
pub use record::Record;
pub use runner::{run_plan, Progress, RunOptions, RunSummary};
pub use suite::Suite;
