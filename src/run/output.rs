//! # Output
//!
//! Everything the workbench writes goes through here, so that faults end the same way
//! everywhere:
//!
//! - [`print`] writes to standard output and flushes; a closed pipe (`microagg list | head`)
//!   becomes [`Error::BrokenPipe`], which the command line ends quietly with exit 0 (as
//!   other Unix tools do), and any other failure (a full disk, `> /dev/full`) is an error
//!   naming standard output, never a panic;
//! - `note` writes a line to standard error and ignores failures: progress and warnings
//!   must not stop a study whose terminal went away;
//! - [`write_atomic`] (and `OutputFile` for files written piece by piece) writes an output
//!   file: a regular file through a temporary file in the same folder, flushed to disk and
//!   then renamed over the destination, so that a crash, a full disk or a signal leaves
//!   either the old file or the new one, never a fragment; a symbolic link is followed (its
//!   target is written so, the link stays); a device, named pipe or socket is written in
//!   place (`/dev/null`, `/dev/stdout`, a pipe to another program); `-` is standard output,
//!   and the command's report then goes to standard error;
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
/// When an output file is standard output (`-`, [`check_destination`]), the text goes to
/// standard error instead, so that the file's bytes are all standard output carries.
pub(crate) fn print(text: &str) -> Result<()> {
    if stdout_claimed_by().is_some() {
        let mut err = std::io::stderr().lock();
        return err
            .write_all(text.as_bytes())
            .and_then(|()| err.flush())
            .map_err(|e| Error::io("standard error", e));
    }
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(stdout_error)
}

/// Write `text` and a newline to standard output.
pub(crate) fn println(text: &str) -> Result<()> {
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
pub(crate) fn note(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{text}");
}

/// The name that means standard output for an output file option.
pub(crate) const STDOUT_NAME: &str = "-";

/// Whether `path` is `-`, standard output.
pub(crate) fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == STDOUT_NAME
}

/// The option (e.g. `--labels-out`) whose output is standard output, if one claimed it.
static STDOUT_CLAIM: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Record that `option`'s output is standard output; a second option claiming it is refused.
/// From then on [`print`] sends the command's report to standard error, so that standard
/// output carries nothing but that file.
fn claim_stdout(option: &str) -> Result<()> {
    let mut claim = STDOUT_CLAIM.lock().unwrap_or_else(|e| e.into_inner());
    match claim.as_deref() {
        Some(other) if other != option => Err(Error::usage(format!(
            "{option} - and {other} - both write to standard output; give one of them a file"
        ))),
        _ => {
            *claim = Some(option.to_string());
            Ok(())
        }
    }
}

/// The option whose output is standard output, if any ([`check_destination`] with `-`).
pub(crate) fn stdout_claimed_by() -> Option<String> {
    STDOUT_CLAIM
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
}

/// Refuse `--json` when an output file is standard output: the JSON report would be mixed
/// into that file (a text report goes to standard error instead, see [`print`]).
pub(crate) fn check_json_report(json: bool) -> Result<()> {
    match stdout_claimed_by() {
        Some(option) if json => Err(Error::usage(format!(
            "{option} - writes to standard output, where --json would print its report too; \
             give {option} a file, or leave out --json (the text report then goes to \
             standard error)"
        ))),
        _ => Ok(()),
    }
}

/// Where the bytes for an output path go.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    /// `-`: standard output.
    Stdout,
    /// An existing device, named pipe or socket: opened and written in place (renaming a
    /// file over it would replace the node itself).
    InPlace(PathBuf),
    /// A regular file or a new path (the end of any chain of symbolic links): replaced
    /// through a temporary file in its folder.
    Replace(PathBuf),
}

/// Links followed before [`resolve`] gives up (Linux's own limit is 40).
const MAX_LINKS: usize = 40;

/// Follow `path` through symbolic links to the file it names (a dangling link names its
/// missing target, which the write creates) and tell how that file is written.
fn resolve(path: &Path) -> std::io::Result<Target> {
    use std::os::unix::fs::FileTypeExt;
    if is_stdout(path) {
        return Ok(Target::Stdout);
    }
    let mut p = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        let meta = match std::fs::symlink_metadata(&p) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Target::Replace(p)),
            Err(e) => return Err(e),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let link = std::fs::read_link(&p)?;
            // A relative link is relative to the folder that holds the link.
            p = if link.is_absolute() {
                link
            } else {
                folder_of(&p).join(link)
            };
            continue;
        }
        if kind.is_dir() {
            return Err(std::io::Error::other("is a folder; give a file name"));
        }
        let special =
            kind.is_char_device() || kind.is_block_device() || kind.is_fifo() || kind.is_socket();
        return Ok(if special {
            Target::InPlace(p)
        } else {
            Target::Replace(p)
        });
    }
    Err(std::io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links in a chain"
    )))
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

/// The open end of an [`OutputFile`].
enum Sink {
    Stdout(std::io::Stdout),
    /// A device, pipe or socket, or (for [`OutputFile::live`]) a regular file written as
    /// it goes.
    Direct(std::fs::File),
    /// A temporary file renamed over `dest` by [`OutputFile::commit`].
    Temporary {
        file: std::fs::File,
        tmp: PathBuf,
        dest: PathBuf,
    },
}

/// An output file being written: standard output for `-`, in place for a device, pipe or
/// socket, and otherwise a temporary file in the folder of the (link-resolved) destination,
/// renamed over it by [`OutputFile::commit`]; dropped without a commit, the temporary file
/// is removed and the destination left as it was. Errors name the path as given.
pub(crate) struct OutputFile {
    path: PathBuf,
    sink: Sink,
}

impl OutputFile {
    /// Open `path` for an atomic write (see the type).
    pub fn create(path: &Path) -> Result<Self> {
        Self::open(path, false)
    }

    /// Open `path` for a file that is read while it grows (a search trace): as
    /// [`OutputFile::create`], but a regular file is truncated and written in place, so that
    /// what was written survives a killed process.
    pub fn live(path: &Path) -> Result<Self> {
        Self::open(path, true)
    }

    fn open(path: &Path, live: bool) -> Result<Self> {
        let err = |e: std::io::Error| Error::io(path, e);
        let sink = match resolve(path).map_err(err)? {
            Target::Stdout => {
                // Reports printed from now on go to standard error ([`print`]).
                let mut claim = STDOUT_CLAIM.lock().unwrap_or_else(|e| e.into_inner());
                claim.get_or_insert_with(|| path.display().to_string());
                Sink::Stdout(std::io::stdout())
            }
            Target::InPlace(p) => Sink::Direct(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(p)
                    .map_err(err)?,
            ),
            Target::Replace(p) if live => Sink::Direct(std::fs::File::create(p).map_err(err)?),
            Target::Replace(dest) => {
                let tmp = temporary_for(&dest);
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .open(&tmp)
                    .map_err(err)?;
                Sink::Temporary { file, tmp, dest }
            }
        };
        Ok(OutputFile {
            path: path.to_path_buf(),
            sink,
        })
    }

    /// The error of a failed write to this file (standard output's as [`print`]'s).
    fn error(&self, e: std::io::Error) -> Error {
        match self.sink {
            Sink::Stdout(_) => stdout_error(e),
            _ => Error::io(&self.path, e),
        }
    }

    /// Write all of `bytes`.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        std::io::Write::write_all(self, bytes).map_err(|e| self.error(e))
    }

    /// Finish the file: flush it; a temporary file is synced to disk and renamed over the
    /// destination, and the rename made durable by syncing the folder (best effort: some
    /// file systems refuse to open folders for syncing).
    pub fn commit(mut self) -> Result<()> {
        let sink = std::mem::replace(&mut self.sink, Sink::Stdout(std::io::stdout()));
        let result = match sink {
            Sink::Stdout(mut out) => out.flush(),
            Sink::Direct(mut file) => file.flush(),
            Sink::Temporary { file, tmp, dest } => {
                let done = file.sync_all().and_then(|()| std::fs::rename(&tmp, &dest));
                if done.is_err() {
                    let _ = std::fs::remove_file(&tmp);
                } else if let Ok(dir) = std::fs::File::open(folder_of(&dest)) {
                    let _ = dir.sync_all();
                }
                done
            }
        };
        result.map_err(|e| self.error(e))
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.sink {
            Sink::Stdout(out) => out.write(buf),
            Sink::Direct(file) | Sink::Temporary { file, .. } => file.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.sink {
            Sink::Stdout(out) => out.flush(),
            Sink::Direct(file) | Sink::Temporary { file, .. } => file.flush(),
        }
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        // Not committed: the destination stays as it was.
        if let Sink::Temporary { tmp, .. } = &self.sink {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// Write `bytes` to the output file `path` as `OutputFile` does: a regular file (or a
/// new path) atomically, through a temporary file in its folder flushed to disk and renamed
/// over it, so that a crash, a full disk or a signal leaves either the old file or the new
/// one; a symbolic link is followed and its final target written so; a device, named pipe
/// or socket is written in place; `-` is standard output. On failure a temporary file is
/// removed and the destination left as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut out = OutputFile::create(path)?;
    out.write_all(bytes)?;
    out.commit()
}

/// Check, before a long run, that `path` can be written: `-` (standard output, claimed for
/// `option`; a second option claiming it is refused), an existing device, pipe or socket
/// (not opened: a named pipe would block until a reader comes), or a file (links followed)
/// whose folder exists and takes a new file and which is not a folder. `option` names the
/// command-line option in errors.
pub fn check_destination(option: &str, path: &Path) -> Result<()> {
    let bad = |msg: String| Error::usage(format!("{option} {}: {msg}", path.display()));
    if path.as_os_str().is_empty() {
        return Err(Error::usage(format!("{option}: empty file name")));
    }
    let file = match resolve(path).map_err(|e| bad(e.to_string()))? {
        Target::Stdout => return claim_stdout(option),
        Target::InPlace(_) => return Ok(()),
        Target::Replace(file) => file,
    };
    let folder = folder_of(&file);
    if !folder.is_dir() {
        return Err(bad(format!("folder '{}' does not exist", folder.display())));
    }
    // Try the same kind of temporary file the final write uses.
    let tmp = temporary_for(&file);
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

/// The canonical form of a file path that may not exist yet (links followed, its folder
/// canonicalised); `-` stays `-`.
pub(crate) fn canonical(path: &Path) -> Option<PathBuf> {
    let file = match resolve(path).ok()? {
        Target::Stdout => return Some(path.to_path_buf()),
        Target::InPlace(p) | Target::Replace(p) => p,
    };
    if let Ok(p) = file.canonicalize() {
        return Some(p);
    }
    let name = file.file_name()?;
    Some(folder_of(&file).canonicalize().ok()?.join(name))
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
