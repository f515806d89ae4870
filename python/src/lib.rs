//! # microagg._core
//!
//! The native half of the Python package `microagg`: thin PyO3 bindings of the workbench's
//! high-level entry points (pipeline run from a method string, lower bounds, the
//! independent check, the exact solver, the method registry, the experiment runner).
//! Everything user-facing (numpy/pandas conversion, result objects, plots, Dask) is in the
//! Python package `python/microagg/`; this crate only moves plain values across and
//! returns JSON text plus labels as native-endian int64 bytes, so that the bindings stay
//! independent of the library's internal types.
//!
//! - [`data`]: the `Data` class (an `Instance` from an array or a `--data` spec);
//! - [`api`]: the functions;
//! - [`kit`]: search-kit parts written in Python (perturbations, acceptance rules,
//!   operators, refiners) driven by the Rust executor;
//! - [`stop`]: solves off the GIL with Ctrl-C turned into the library's interrupt flag;
//! - [`errors`]: library errors as the Python exceptions of `microagg._errors`.
//!
//! ## Complexity
//! O(n d) per call for moving data in and labels out, besides the solve itself.
//!
//! ## References
//! - PyO3 user guide (parallelism, signals); maturin (abi3 wheels).

use pyo3::prelude::*;

mod api;
mod data;
mod errors;
mod kit;
mod stop;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<data::Data>()?;
    m.add_function(wrap_pyfunction!(api::run, m)?)?;
    m.add_function(wrap_pyfunction!(api::bound, m)?)?;
    m.add_function(wrap_pyfunction!(api::check, m)?)?;
    m.add_function(wrap_pyfunction!(api::solve_exact, m)?)?;
    m.add_function(wrap_pyfunction!(api::methods, m)?)?;
    m.add_function(wrap_pyfunction!(api::experiment, m)?)?;
    m.add_function(wrap_pyfunction!(api::masked, m)?)?;
    m.add_function(wrap_pyfunction!(api::figure_style, m)?)?;
    m.add_function(wrap_pyfunction!(api::report, m)?)?;
    m.add_function(wrap_pyfunction!(kit::twin::_install_test_twin, m)?)?;
    m.add_class::<kit::view::PartitionView>()?;
    m.add_class::<kit::view::RngHandle>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
