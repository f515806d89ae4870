//! # Output
//!
//! Everything the workbench writes goes through here, so that faults end the same way
//! everywhere:
//!
//! - [`print`] writes to standard output and flushes; a closed pipe (`microagg list | head`)
//!   becomes [`Error::BrokenPipe`], which the command line ends quietly with exit 0 (as
//!   other Unix tools do), and any other failure (a full disk, `> /dev/full`) is an error
//!   naming standard output, never a panic;
//! - [`note`] writes a line to standard error and ignores failures: progress and warnings
//!   must not stop a study whose terminal went away;
//! - [`write_atomic`] writes a file through a temporary file in the same folder, flushed to
//!   disk and then renamed over the destination, so that a crash, a full disk or a signal
//!   leaves either the old file or the new one, never a fragment;
//! - [`check_destination`] tells before a run whether an output file can be written there.
//!
//! ## Complexity
//! Linear in the bytes written.
//!
//! ## References
//! - POSIX `rename(2)` (atomic replacement within one file system) and `fsync(2)`.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Write `text` to standard output and flush it.
pub fn print(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(stdout_error)
}

/// Write `text` and a newline to standard output.
pub fn println(text: &str) -> Result<()> {
    let mut line = String::with_capacity(text.len() + 1);
    line.push_str(text);
    line.push('\n');
    print(&line)
}

fn stdout_error(e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Error::BrokenPipe
    } else {
        Error::io("standard output", e)
    }
}

/// Write a line to standard error; failures (a closed terminal or pipe) are ignored.
pub fn note(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{text}");
}

/// A temporary file name next to `path`, unique to this process.
fn temporary_for(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}

/// The folder a file `path` is written into.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Write `bytes` to `path` atomically: a temporary file in the same folder, written,
/// flushed to disk (fsync) and renamed over `path`. On any failure the temporary file is
/// removed and `path` is left as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = temporary_for(path);
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        // The rename itself is made durable by syncing the folder (best effort: some file
        // systems refuse to open folders for syncing).
        if let Ok(dir) = std::fs::File::open(folder_of(path)) {
            let _ = dir.sync_all();
        }
        Ok(())
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })
}

/// Check, before a long run, that `path` can be written: its folder exists and takes a new
/// file, and `path` is not a folder. `option` names the command-line option in errors.
pub fn check_destination(option: &str, path: &Path) -> Result<()> {
    let bad = |msg: String| Error::usage(format!("{option} {}: {msg}", path.display()));
    if path.as_os_str().is_empty() {
        return Err(Error::usage(format!("{option}: empty file name")));
    }
    if path.is_dir() {
        return Err(bad("is a folder; give a file name".into()));
    }
    let folder = folder_of(path);
    if !folder.is_dir() {
        return Err(bad(format!("folder '{}' does not exist", folder.display())));
    }
    // Try the same kind of temporary file the final write uses.
    let tmp = temporary_for(path);
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
    {
        Ok(f) => {
            drop(f);
            let _ = std::fs::remove_file(&tmp);
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(bad(format!(
            "cannot create a file in folder '{}': {e}",
            folder.display()
        ))),
    }
}

/// The canonical form of a file path that may not exist yet (its folder canonicalised).
pub fn canonical(path: &Path) -> Option<PathBuf> {
    if let Ok(p) = path.canonicalize() {
        return Some(p);
    }
    let name = path.file_name()?;
    Some(folder_of(path).canonicalize().ok()?.join(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.txt");
        write_atomic(&p, b"one\n").unwrap();
        write_atomic(&p, b"two\n").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two\n");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[test]
    fn destinations_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_destination("--x", &dir.path().join("ok.txt")).is_ok());
        let e = check_destination("--x", &dir.path().join("nope/ok.txt")).unwrap_err();
        assert!(e.to_string().contains("does not exist"), "{e}");
        let e = check_destination("--x", dir.path()).unwrap_err();
        assert!(e.to_string().contains("is a folder"), "{e}");
    }
}
