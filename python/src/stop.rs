//! # Solves off the GIL, stoppable with Ctrl-C
//!
//! [`interruptible`] runs a solve on a scoped worker thread with the GIL released, while
//! the calling thread waits in slices of 50 ms and, between them, lets Python run its
//! signal handlers (`PyErr_CheckSignals`). A `KeyboardInterrupt` there (Ctrl-C, or any
//! exception a signal handler raises) sets the solve's own interrupt flag, the same flag
//! the CLI's SIGINT handler sets: refiners return their best partition so far, colgen and
//! the set-partitioning solver stop as at a time limit. The exception is kept and handed
//! back to the caller, which returns the best-so-far result (marked interrupted) or
//! re-raises it when the solve had nothing to return. Signals are only delivered to
//! Python's main thread, so from other threads (Dask workers) a solve simply runs.
//!
//! ## Complexity
//! One wake-up per 50 ms of solve time on the calling thread.
//!
//! ## References
//! - Python C API, `PyErr_CheckSignals`; PyO3 guide, "Parallelism".

use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// What an interruptible solve returned, and the signal's exception if one arrived.
pub struct Finished<T> {
    pub value: T,
    pub signal: Option<PyErr>,
}

/// Run `work(flag)` off the GIL on a worker thread; Ctrl-C sets `flag`.
pub fn interruptible<T, F>(py: Python<'_>, flag: &AtomicBool, work: F) -> PyResult<Finished<T>>
where
    T: Send,
    F: FnOnce(&AtomicBool) -> T + Send,
{
    let (done_tx, mut done_rx) = mpsc::channel::<()>();
    let mut signal: Option<PyErr> = None;
    let joined = std::thread::scope(|s| {
        let worker = s.spawn(move || {
            // The worker keeps one Python thread state for the whole solve (attached once,
            // then detached): a part written in Python attaches per call, which then only
            // takes the GIL instead of creating and destroying a thread state each time
            // (about 60 us a call on the 2-core machine, measured with
            // python/bench/python_shift.py).
            let value = Python::attach(|py| py.detach(|| work(flag)));
            let _ = done_tx.send(());
            value
        });
        loop {
            // The receiver moves into the GIL-free closure and back (it is Send, not Sync).
            let (finished, rx) = py.detach(move || {
                let r = done_rx.recv_timeout(Duration::from_millis(50));
                (!matches!(r, Err(mpsc::RecvTimeoutError::Timeout)), done_rx)
            });
            done_rx = rx;
            if finished {
                break;
            }
            if signal.is_none() {
                if let Err(e) = py.check_signals() {
                    flag.store(true, Ordering::SeqCst);
                    signal = Some(e);
                }
            }
        }
        worker.join()
    });
    match joined {
        Ok(value) => Ok(Finished { value, signal }),
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            Err(crate::errors::raise(
                py,
                "AlgorithmError",
                format!("internal error (panic): {what}"),
            ))
        }
    }
}
