//! # The process-wide thread pool
//!
//! Every parallel step of the workbench (distance passes, spatial-index builds, neighbour
//! lists, blocks, parts, disclosure risk, bench) runs inside [`install`], on one pool of
//! the size `--threads` asked for ([`set_threads`]), built on first use; rayon's global
//! pool is never built (`tests/thread_pool.rs` checks both). Results never depend on the
//! thread count: each parallel step splits its work so that every value is computed by one
//! thread with the same operations.
//!
//! ## Complexity
//! O(1) per call after the pool is built; building it starts the threads once.
//!
//! ## References
//! - rayon (Rust data-parallelism library): `ThreadPool::install`.

/// The thread count asked for by [`set_threads`] (None: rayon's default).
static REQUESTED: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();

/// Use `threads` threads for every parallel step (None: rayon's default, the available
/// cores). Call once, before any parallel step; later calls are ignored. Nothing starts
/// here: the pool is built by the first [`install`], so a run that never has a parallel
/// step (a small instance) spawns no thread.
pub fn set_threads(threads: Option<usize>) {
    let _ = REQUESTED.set(threads);
}

/// The workbench's thread pool, built on first use with the count of [`set_threads`].
///
/// It is a pool of its own, not rayon's global one: a parallel step that bypassed
/// [`install`] would run on rayon's global pool (built with the default count, ignoring
/// `--threads`), and `tests/thread_pool.rs` checks that the global pool is never built.
fn workbench_pool() -> &'static rayon::ThreadPool {
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let mut builder = rayon::ThreadPoolBuilder::new();
        if let Some(Some(t)) = REQUESTED.get() {
            builder = builder.num_threads((*t).max(1));
        }
        builder
            .build()
            .unwrap_or_else(|e| panic!("cannot start the thread pool: {e}"))
    })
}

/// Run `op` on the workbench's pool: the one entry point of every parallel step (rayon's
/// `par_iter`, `par_chunks_mut`, `join`, ... are called only inside it).
///
/// From a thread of some rayon pool (a nested step, or a caller's own pool as in the
/// thread-count tests) `op` runs right there, on that pool; otherwise on the pool of
/// [`set_threads`]' count, built on the first call (the calling thread waits).
pub fn install<R: Send>(op: impl FnOnce() -> R + Send) -> R {
    if rayon::current_thread_index().is_some() {
        note_install(rayon::current_num_threads());
        return op();
    }
    let pool = workbench_pool();
    pool.install(|| {
        note_install(rayon::current_num_threads());
        op()
    })
}

/// The number of threads a parallel step would run on: the current rayon pool's when
/// called on one of its threads, else the workbench pool's (built here if need be).
pub fn threads() -> usize {
    if rayon::current_thread_index().is_some() {
        rayon::current_num_threads()
    } else {
        workbench_pool().current_num_threads()
    }
}

/// Calls of [`install`] and the pool sizes they ran on (bit t: a pool of t threads, t < 64;
/// bit 63: 63 or more), for the test that every parallel step honours `--threads`.
static INSTALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static SIZES_SEEN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn note_install(threads: usize) {
    use std::sync::atomic::Ordering::Relaxed;
    INSTALLS.fetch_add(1, Relaxed);
    SIZES_SEEN.fetch_or(1 << threads.min(63), Relaxed);
}

/// (calls of [`install`] so far, bit set of the pool sizes they ran on); a test hook.
#[doc(hidden)]
pub fn install_record() -> (u64, u64) {
    use std::sync::atomic::Ordering::Relaxed;
    (INSTALLS.load(Relaxed), SIZES_SEEN.load(Relaxed))
}
