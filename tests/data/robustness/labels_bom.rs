//! Labels files saved with a UTF-8 byte order mark (issue 48, item 6a): the mark is skipped,
//! as in CSV data, by every labels reader.

use super::common;

#[test]
fn a_byte_order_mark_opening_a_labels_file_is_skipped() {
    let labels = microagg::labels::parse_labels("\u{feff}0\n0\n1\n1\n".as_bytes(), "bom.lab")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(labels, [0, 0, 1, 1]);
    // Only at the start: elsewhere it is still an error.
    assert!(microagg::labels::parse_labels("0\n\u{feff}1\n".as_bytes(), "x.lab").is_err());

    let dir = tempfile::tempdir().unwrap();
    let data = super::gauss_csv(dir.path(), 12, 2, 9);
    let data = data.to_str().unwrap();
    let plain = dir.path().join("plain.lab");
    let plain = plain.to_str().unwrap();
    common::write_mdav_labels(data, "3", plain);
    let with_mark = dir.path().join("bom.lab");
    let text = std::fs::read_to_string(plain).unwrap();
    std::fs::write(&with_mark, format!("\u{feff}{text}")).unwrap();
    let check = |labels: &str| {
        common::cli_json(&[
            "check", "--data", data, "--k", "3", "--labels", labels, "--json",
        ])
    };
    assert_eq!(check(with_mark.to_str().unwrap()), check(plain));

    // A part file (run --part) with the mark still combines.
    let part = dir.path().join("p1.part");
    let part = part.to_str().unwrap();
    common::cli_ok(&common::run_args(
        data,
        "3",
        "mdav",
        &["--part", "1/1", "--labels-out", part],
    ));
    let text = std::fs::read_to_string(part).unwrap();
    std::fs::write(part, format!("\u{feff}{text}")).unwrap();
    let out = dir.path().join("all.lab");
    common::cli_ok(&["combine", part, "--out", out.to_str().unwrap()]);
}
