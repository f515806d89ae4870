//! # Worker pool of the experiment runner
//!
//! [`parallel_map`]: a function applied to every item on scoped threads that take the next
//! item from a shared counter; results come back in item order whatever the scheduling.
//!
//! ## Complexity
//! The items' costs divided over the workers; O(items) memory for the results.
//!
//! ## References
//! None.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Apply `f` to every item on `jobs` threads; results in item order. Stops handing out items
/// once `stop` is set (unstarted items give `None`).
pub(super) fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    stop: &AtomicBool,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<Option<R>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1).min(items.len().max(1)) {
            scope.spawn(|| loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= items.len() {
                    break;
                }
                let r = f(&items[i]);
                results.lock().expect("no worker panicked")[i] = Some(r);
            });
        }
    });
    results.into_inner().expect("no worker panicked")
}
