//! # Interrupts
//!
//! SIGINT (Ctrl-C), SIGTERM (what `kill`, Slurm and systemd send) and SIGHUP (a closed
//! terminal) all ask the workbench to stop: the first one sets [`flag`], which refiners and
//! the experiment runner poll, so that a run ends with its best partition so far and writes
//! it, and a study keeps its finished runs for `--resume`. A second signal ends the process
//! at once with the conventional status 128 + signal number (130 for SIGINT, 143 for
//! SIGTERM, 129 for SIGHUP); commands write what they already hold before starting anything
//! long, so that second signal loses no finished work. A command with no partial result to
//! keep (`verify-bound`: a verdict is all or nothing) calls `exit_on_first_signal`, and
//! then the first signal ends the process at once with that same status. The handler only
//! stores atomics and calls `write(2)` and `_exit(2)`, which are async-signal-safe.
//!
//! ## Complexity
//! O(1) per signal.
//!
//! ## References
//! - POSIX `sigaction(2)`; signal-safety(7) for what a handler may call.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static SIGNAL: AtomicI32 = AtomicI32::new(0);
static EXIT_ON_FIRST: AtomicBool = AtomicBool::new(false);

const MESSAGE: &[u8] = b"interrupted: stopping (a single run keeps its best partition so far; a \
study keeps its finished runs for --resume); signal again to abort\n";
const MESSAGE_AT_ONCE: &[u8] = b"interrupted: this command keeps no partial result; stopped\n";

extern "C" fn on_signal(sig: libc::c_int) {
    if EXIT_ON_FIRST.load(Ordering::SeqCst) {
        // SAFETY: write(2) and _exit(2) are async-signal-safe; a failed write is ignored.
        unsafe {
            libc::write(2, MESSAGE_AT_ONCE.as_ptr().cast(), MESSAGE_AT_ONCE.len());
            libc::_exit(128 + sig);
        }
    }
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        // SAFETY: _exit is async-signal-safe.
        unsafe { libc::_exit(128 + sig) };
    }
    SIGNAL.store(sig, Ordering::SeqCst);
    // SAFETY: write(2) on stderr is async-signal-safe; a failed write is ignored.
    unsafe {
        libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
    }
}

/// Install the handler for SIGINT, SIGTERM and SIGHUP (once, at program start).
pub fn install() {
    #[cfg(unix)]
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: a zeroed sigaction with a valid handler and an empty mask is well-formed;
        // the handler only touches atomics and async-signal-safe calls.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(sig, &action, std::ptr::null_mut());
        }
    }
}

/// From now on the first signal ends the process (status 128 + signal): for commands that
/// neither poll [`flag`] nor hold anything worth keeping when stopped.
pub(crate) fn exit_on_first_signal() {
    EXIT_ON_FIRST.store(true, Ordering::SeqCst);
}

/// The flag set by the first signal.
pub(crate) fn flag() -> &'static AtomicBool {
    &INTERRUPTED
}

/// True once a stop signal arrived.
pub(crate) fn requested() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// The exit status for an interrupted command: 128 + the signal number (130 when the flag
/// was set some other way).
pub(crate) fn exit_status() -> u8 {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => 130,
        s => (128 + s).clamp(0, 255) as u8,
    }
}

/// The name of the signal received, for messages.
pub(crate) fn signal_name() -> &'static str {
    match SIGNAL.load(Ordering::SeqCst) {
        libc::SIGTERM => "SIGTERM",
        libc::SIGHUP => "SIGHUP",
        _ => "SIGINT",
    }
}
