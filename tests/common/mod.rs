//! Shared helpers for the integration tests, by job: [`instances`] (test data), [`cli`]
//! (running the binary), [`methods`] (running a method, published tables), [`optima`]
//! (independent optima), [`pricing`] (column generation and cut oracles) and [`checks`]
//! (assertions shared by the randomised tests). Every helper
//! is re-exported here, so a test names it `common::NAME`.
// Each test crate uses a different subset of the helpers.
#![allow(dead_code, unused_imports)]

mod checks;
mod cli;
mod instances;
mod methods;
mod optima;
mod pricing;

pub use checks::*;
pub use cli::*;
pub use instances::*;
pub use methods::*;
pub use optima::*;
pub use pricing::*;
