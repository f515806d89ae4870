//! Output paths (issue 48, item 1): a regular file is replaced atomically, a symbolic link is
//! followed and kept, a device or named pipe is written in place, and `-` is standard output.

use super::common;
use microagg::output::{check_destination, write_atomic};
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

const TEXT: &[u8] = b"0\n0\n1\n1\n";

/// A path prepared in a fresh folder, written with [`write_atomic`], and what must hold after.
struct Case {
    name: &'static str,
    /// Make the folder's content; return the path to write.
    setup: fn(&Path) -> PathBuf,
    /// Check the folder after the write.
    check: fn(&Path, &microagg::Result<()>),
}

fn is_link(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink())
}

fn written_through_link(dir: &Path, link: &str, target: &str, r: &microagg::Result<()>) {
    assert!(r.is_ok(), "{r:?}");
    assert!(is_link(&dir.join(link)), "the link {link} was replaced");
    assert_eq!(std::fs::read(dir.join(target)).unwrap(), TEXT);
    // The temporary file went into the target's folder and is gone.
    let names: Vec<_> = std::fs::read_dir(dir.join(target).parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.contains(".tmp-")), "{names:?}");
}

const CASES: &[Case] = &[
    Case {
        name: "a regular file is replaced",
        setup: |dir| {
            std::fs::write(dir.join("a.lab"), "old\n").unwrap();
            dir.join("a.lab")
        },
        check: |dir, r| {
            assert!(r.is_ok(), "{r:?}");
            assert_eq!(std::fs::read(dir.join("a.lab")).unwrap(), TEXT);
        },
    },
    Case {
        name: "a link to a file: the link stays, its target is written",
        setup: |dir| {
            std::fs::write(dir.join("target.txt"), "old\n").unwrap();
            symlink("target.txt", dir.join("link.lab")).unwrap();
            dir.join("link.lab")
        },
        check: |dir, r| written_through_link(dir, "link.lab", "target.txt", r),
    },
    Case {
        name: "a chain of links into another folder (relative to each link's folder)",
        setup: |dir| {
            std::fs::create_dir(dir.join("sub")).unwrap();
            std::fs::write(dir.join("sub/target.txt"), "old\n").unwrap();
            symlink("target.txt", dir.join("sub/inner")).unwrap();
            symlink("sub/inner", dir.join("outer")).unwrap();
            dir.join("outer")
        },
        check: |dir, r| {
            written_through_link(dir, "outer", "sub/target.txt", r);
            assert!(is_link(&dir.join("sub/inner")));
        },
    },
    Case {
        name: "a dangling link creates its target",
        setup: |dir| {
            symlink("new.txt", dir.join("link.lab")).unwrap();
            dir.join("link.lab")
        },
        check: |dir, r| written_through_link(dir, "link.lab", "new.txt", r),
    },
    Case {
        name: "a null device is written in place",
        setup: |dir| device(dir, "null", 3),
        check: |dir, r| {
            assert!(r.is_ok(), "{r:?}");
            assert!(is_char_device(&device(dir, "null", 3)));
        },
    },
    Case {
        name: "a full device is a clear error naming the path, and stays a device",
        setup: |dir| device(dir, "full", 7),
        check: |dir, r| {
            let path = device(dir, "full", 7);
            let e = r.as_ref().expect_err("a full device").to_string();
            assert!(
                e.contains(path.to_str().unwrap()) && e.contains("No space"),
                "{e}"
            );
            assert!(is_char_device(&path));
        },
    },
];

fn is_char_device(p: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_char_device())
}

/// The memory device `name` (Linux major 1, `minor`: 3 null, 7 full): a private node in
/// `dir` where this process may make one (root), so that a faulty write replaces that copy
/// and never the system's own; else `/dev/NAME` itself.
fn device(dir: &Path, name: &str, minor: u32) -> PathBuf {
    let private = dir.join(name);
    if is_char_device(&private) {
        return private;
    }
    let made = std::process::Command::new("mknod")
        .arg(&private)
        .args(["c", "1", &minor.to_string()])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if made {
        private
    } else {
        Path::new("/dev").join(name)
    }
}

#[test]
fn output_paths_are_written_by_their_kind() {
    for case in CASES {
        let dir = tempfile::tempdir().unwrap();
        let path = (case.setup)(dir.path());
        check_destination("--labels-out", &path)
            .unwrap_or_else(|e| panic!("{}: check_destination: {e}", case.name));
        let r = write_atomic(&path, TEXT);
        eprintln!("case: {}", case.name);
        (case.check)(dir.path(), &r);
    }
}

fn mkfifo(path: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(ok.success());
}

#[test]
fn a_named_pipe_is_written_in_place_for_its_reader() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    mkfifo(&fifo);
    // The check must not open the pipe: with no reader yet that would block for ever.
    check_destination("--labels-out", &fifo).unwrap();
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    write_atomic(&fifo, TEXT).unwrap();
    // Checked first: a replaced pipe would leave the reader waiting for ever.
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the pipe was replaced by a {kind:?}");
    assert_eq!(reader.join().unwrap(), TEXT);
}

#[test]
fn the_trace_goes_to_standard_output_or_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let data = super::gauss_csv(dir.path(), 30, 2, 5);
    let data = data.to_str().unwrap();
    let steps = ["--max-steps", "50", "--trace"];
    let out = common::cli_ok(&common::run_args(
        data,
        "3",
        "mdav+ils",
        &[&steps[..], &["-"]].concat(),
    ));
    let text = common::stdout(&out);
    assert!(text.starts_with("seconds,stage,step"), "{text}");
    assert!(
        !text.contains(" IL "),
        "the report went to standard output: {text}"
    );
    let fifo = dir.path().join("trace.pipe");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let fifo = fifo.to_str().unwrap();
    common::cli_ok(&common::run_args(
        data,
        "3",
        "mdav+ils",
        &[&steps[..], &[fifo]].concat(),
    ));
    let text = reader.join().unwrap();
    assert!(text.starts_with("seconds,stage,step"), "{text}");
}

#[test]
fn labels_out_dash_puts_the_labels_alone_on_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let data = super::gauss_csv(dir.path(), 30, 2, 4);
    let data = data.to_str().unwrap();
    let file = dir.path().join("l.lab");
    common::write_mdav_labels(data, "3", file.to_str().unwrap());
    let expected = std::fs::read_to_string(&file).unwrap();
    let out = common::cli_ok(&common::run_args(data, "3", "mdav", &["--labels-out", "-"]));
    assert_eq!(
        common::stdout(&out),
        expected,
        "stdout holds only the labels"
    );
    assert!(
        common::stderr(&out).contains("IL"),
        "{}",
        common::stderr(&out)
    );
    assert!(
        !dir.path().join("-").exists(),
        "a file named '-' was written"
    );
    let out = common::cli_ok(&[
        "solve-exact",
        "--data",
        data,
        "--k",
        "3",
        "--labels-out",
        "-",
    ]);
    assert_eq!(
        common::stdout(&out).lines().count(),
        30,
        "{}",
        common::stdout(&out)
    );
    // Two outputs on standard output, or a JSON report with it, are refused before the run.
    let e = common::cli_err(&common::run_args(
        data,
        "3",
        "mdav",
        &["--labels-out", "-", "--masked-out", "-"],
    ));
    assert!(e.contains("standard output"), "{e}");
    let e = common::cli_err(&common::run_args(
        data,
        "3",
        "mdav",
        &["--labels-out", "-", "--json"],
    ));
    assert!(e.contains("--json"), "{e}");
}
