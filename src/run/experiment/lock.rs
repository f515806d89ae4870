//! # Output locks
//!
//! Two studies appending to one records file at once would interleave and then overwrite
//! each other's records (each rewrites the file sorted at the end). A study therefore takes
//! a lock on its records file first: `<records file>.lock`, created with `O_EXCL`
//! (`create_new`), holding the owner's process id and host name. A second writer is refused
//! with an error naming the owner. A lock left behind by a process that died (a crash,
//! `kill -9`, a second Ctrl-C) is taken over, with a note, when its process no longer runs on
//! this host; a lock from another host is never taken over (its process cannot be checked),
//! the error says which file to remove. Shards of one study write different files and lock
//! them separately, so a job array may share one output folder.
//!
//! ## Complexity
//! O(1) file operations.
//!
//! ## References
//! - POSIX `open(2)` with `O_CREAT | O_EXCL` (atomic creation), `kill(2)` with signal 0.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A held lock; removed when dropped.
#[derive(Debug)]
pub(crate) struct OutLock {
    path: PathBuf,
}

/// This machine's host name (empty when unknown).
fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: gethostname writes at most buf.len() bytes into buf.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return String::new();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// True when process `pid` runs on this host (or cannot be signalled for lack of rights,
/// which also means it exists).
fn process_alive(pid: i32) -> bool {
    if pid <= 0 {
        return false;
    }
    // SAFETY: signal 0 only checks that the process exists.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Owner of a lock file: (pid, host), when readable.
fn owner(path: &Path) -> Option<(i32, String)> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut pid = None;
    let mut host = String::new();
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("pid=") {
            pid = v.trim().parse().ok();
        } else if let Some(v) = line.strip_prefix("host=") {
            host = v.trim().to_string();
        }
    }
    Some((pid?, host))
}

impl OutLock {
    /// Lock `records` (the file a study writes) for this process.
    pub(crate) fn acquire(records: &Path) -> Result<OutLock> {
        let mut name = records.as_os_str().to_owned();
        name.push(".lock");
        let path = PathBuf::from(name);
        let me = host_name();
        for _ in 0..3 {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut f) => {
                    let text = format!("pid={}\nhost={me}\n", std::process::id());
                    f.write_all(text.as_bytes())
                        .and_then(|()| f.sync_all())
                        .map_err(|e| Error::io(&path, e))?;
                    return Ok(OutLock { path });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    match owner(&path) {
                        Some((pid, host)) if host == me && !process_alive(pid) => {
                            crate::output::note(&format!(
                                "note: {}: taking over the lock of process {pid}, which no \
                                 longer runs (a study that crashed or was killed)",
                                path.display()
                            ));
                            let _ = std::fs::remove_file(&path);
                        }
                        Some((pid, host)) => {
                            return Err(Error::usage(format!(
                                "{} is being written by another study (process {pid} on host \
                                 '{host}', lock file {}); wait for it to finish or use another \
                                 --out; if that process is gone, remove the lock file",
                                records.display(),
                                path.display()
                            )))
                        }
                        // Being written by its owner right now, or not ours to read: wait a
                        // moment and look again.
                        None => std::thread::sleep(std::time::Duration::from_millis(100)),
                    }
                }
                Err(e) => return Err(Error::io(&path, e)),
            }
        }
        Err(Error::usage(format!(
            "{} is locked ({}), and the lock holds no readable owner; if no study is \
             writing there, remove the lock file",
            records.display(),
            path.display()
        )))
    }

    /// The lock file.
    #[cfg(test)]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for OutLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_writer_is_refused_and_the_lock_is_released() {
        let dir = tempfile::tempdir().unwrap();
        let records = dir.path().join("records.jsonl");
        let lock = OutLock::acquire(&records).unwrap();
        let e = OutLock::acquire(&records).unwrap_err().to_string();
        assert!(e.contains("another study") && e.contains("process"), "{e}");
        drop(lock);
        assert!(!dir.path().join("records.jsonl.lock").exists());
        OutLock::acquire(&records).unwrap();
    }

    /// A folder whose `records.jsonl` is locked by a process that cannot be running (a pid
    /// beyond the kernel's limit) on `host`; the folder and the records path.
    fn locked_by(host: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let lock = format!("pid={}\nhost={host}\n", i32::MAX);
        std::fs::write(dir.path().join("records.jsonl.lock"), lock).unwrap();
        let records = dir.path().join("records.jsonl");
        (dir, records)
    }

    #[test]
    fn a_dead_owner_lock_is_taken_over() {
        let (_dir, records) = locked_by(&host_name());
        let lock = OutLock::acquire(&records).unwrap();
        let text = std::fs::read_to_string(lock.path()).unwrap();
        assert!(
            text.contains(&format!("pid={}", std::process::id())),
            "{text}"
        );
    }

    #[test]
    fn a_lock_from_another_host_is_not_taken_over() {
        let (_dir, records) = locked_by(&format!("elsewhere-{}", host_name()));
        let e = OutLock::acquire(&records).unwrap_err().to_string();
        assert!(
            e.contains("elsewhere") && e.contains("remove the lock file"),
            "{e}"
        );
    }
}
