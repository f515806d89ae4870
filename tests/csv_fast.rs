//! The plain-rows CSV path (src/data/csv_fast.rs) against the general reader: the same
//! instance bit for bit on the CASC files and on adversarial number texts, the same error
//! where the text is not plain or not valid; and the manifest checksum still refused when
//! the loader hashes while parsing.

mod common;

use microagg::data::csv_fast::plain_rows;
use microagg::data::csv_file::{load_csv_missing, read_csv_missing};
use microagg::data::{manifest::Manifest, ColumnSelection, Instance};
use microagg::missing::MissingPolicy;
use std::path::Path;

/// Load `path` through the file loader (which takes the plain-rows path for small plain
/// files) and through the general reader on the same bytes.
fn both(path: &Path, delimiter: u8) -> (Result<Instance, String>, Result<Instance, String>) {
    let all = ColumnSelection::All;
    let fast = load_csv_missing(path, &all, delimiter, &[], MissingPolicy::Refuse)
        .map(|(i, _)| i)
        .map_err(|e| e.to_string());
    let bytes = std::fs::read(path).unwrap();
    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
    let general = read_csv_missing(
        &bytes[..],
        &path.display().to_string(),
        &name,
        &all,
        delimiter,
        &[],
        MissingPolicy::Refuse,
    )
    .map(|(i, _)| i)
    .map_err(|e| e.to_string());
    (fast, general)
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn assert_same(fast: &Instance, general: &Instance, what: &str) {
    assert_eq!(fast.columns, general.columns, "{what}");
    assert_eq!((fast.n, fast.d), (general.n, general.d), "{what}");
    assert_eq!(bits(&fast.raw), bits(&general.raw), "{what}: raw values");
    assert_eq!(bits(&fast.z), bits(&general.z), "{what}: z-scores");
    assert_eq!(bits(&fast.mean), bits(&general.mean), "{what}");
    assert_eq!(bits(&fast.std), bits(&general.std), "{what}");
    assert_eq!(fast.sha256, general.sha256, "{what}");
    assert_eq!(fast.name, general.name, "{what}");
}

#[test]
fn the_casc_files_load_identically_and_take_the_plain_path() {
    let manifest = Manifest::embedded().unwrap();
    for id in ["tarragona", "census", "eia"] {
        let path = match manifest.find(id).unwrap().resolve() {
            Ok(p) => p,
            Err(e) => {
                assert!(!common::data_required(), "{id}: {e}");
                eprintln!("skipping {id}: {e}");
                continue;
            }
        };
        let bytes = std::fs::read(&path).unwrap();
        let fields = bytes
            .split(|&b| b == b'\n')
            .next()
            .unwrap()
            .split(|&b| b == b',')
            .count();
        let selected: Vec<usize> = (0..fields).collect();
        let raw = plain_rows(&bytes, b',', fields, &selected)
            .unwrap_or_else(|| panic!("{id} is plain text: the fast path must take it"));
        let (fast, general) = both(&path, b',');
        let (fast, general) = (fast.unwrap(), general.unwrap());
        assert_eq!(bits(&raw), bits(&general.raw), "{id}");
        assert_same(&fast, &general, id);
        // The named load (checksum from the parse) gives the manifest's checksum.
        let named = common::casc(id).unwrap();
        assert_eq!(named.sha256, manifest.find(id).unwrap().sha256, "{id}");
        assert_eq!(bits(&named.z), bits(&general.z), "{id}");
    }
}

/// Number texts that stress a parser: exponents, signs, many digits, halfway cases,
/// subnormals, the largest finite value, padding.
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "+0.0",
    "1",
    "-1",
    "+17",
    ".5",
    "5.",
    "-.25",
    "1e5",
    "1E5",
    "1e+05",
    "-2.5e-3",
    "6.02214076E23",
    "0.1000000000000000055511151231257827021181583404541015625",
    "0.30000000000000004",
    "9007199254740993",
    "9007199254740992.9999999999999999999",
    "123456789012345678901234567890123456789",
    "2.2250738585072011e-308",
    "4.9406564584124654e-324",
    "2.4703282292062328e-324",
    "1.7976931348623157e308",
    "1.7976931348623158e308",
    "7.2057594037927933e16",
    "  42  ",
    "\t3.5",
    "00000000000000000000001.5",
    "1.00000000000000011102230246251565404236316680908203125",
    "1.00000000000000011102230246251565404236316680908203124",
    "1.00000000000000011102230246251565404236316680908203126",
];

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn adversarial_numbers_parse_to_the_same_bits_as_rusts_parser() {
    let dir = tempfile::tempdir().unwrap();
    // Three columns: the text, its negation-free companion (varies so no column is constant),
    // a counter.
    let mut text = String::from("a,b,c\n");
    for (i, s) in NUMBERS.iter().enumerate() {
        text.push_str(&format!("{s},{},{i}\n", NUMBERS[(i + 7) % NUMBERS.len()]));
    }
    let bytes = text.as_bytes();
    let raw = plain_rows(bytes, b',', 3, &[0, 1, 2]).expect("plain text");
    for (i, s) in NUMBERS.iter().enumerate() {
        let want: f64 = s.trim().parse().unwrap();
        assert_eq!(raw[3 * i].to_bits(), want.to_bits(), "'{s}'");
    }
    for (variant, t) in [
        ("lf", text.clone()),
        ("crlf", text.replace('\n', "\r\n")),
        ("no final newline", text.trim_end().to_string()),
        ("semicolons", text.replace(',', ";")),
    ] {
        let delimiter = if variant == "semicolons" { b';' } else { b',' };
        let path = write(
            dir.path(),
            &format!("{}.csv", variant.replace(' ', "_")),
            &t,
        );
        let (fast, general) = both(&path, delimiter);
        assert_same(&fast.unwrap(), &general.unwrap(), variant);
    }
}

#[test]
fn texts_off_the_plain_path_give_the_general_readers_result_or_error() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str)] = &[
        ("quoted", "a,b\n\"1\",2\n3,\"4\"\n"),
        ("quoted header", "\"a\",b\n1,2\n3,4\n"),
        ("blank line", "a,b\n1,2\n\n3,4\n"),
        ("blank lines at end", "a,b\n1,2\n3,4\n\n\n"),
        ("lone cr", "a,b\r1,2\r3,4\r"),
        ("cr inside", "a,b\n1,2\r3,4\n5,6\n"),
        ("bom", "\u{feff}a,b\n1,2\n3,4\n"),
        ("ragged", "a,b\n1,2\n3\n"),
        ("too many", "a,b\n1,2\n3,4,5\n"),
        ("empty cell", "a,b\n1,\n3,4\n"),
        ("NA", "a,b\n1,NA\n3,4\n"),
        ("text", "a,b\n1,x\n3,4\n"),
        ("hex", "a,b\n1,0x10\n3,4\n"),
        ("underscore", "a,b\n1,1_000\n3,4\n"),
        ("inf", "a,b\n1,inf\n3,4\n"),
        ("nan", "a,b\n1,NaN\n3,4\n"),
        ("overflow", "a,b\n1,1e400\n3,4\n"),
        ("header only", "a,b\n"),
        ("blank header line", "\na,b\n1,2\n3,4\n"),
        ("non-utf8", "a,b\n1,\u{e9}\n3,4\n"),
        ("constant", "a,b\n1,2\n1,4\n"),
        ("one row", "a,b\n1,2\n"),
    ];
    for (what, text) in cases {
        let mut bytes = text.as_bytes().to_vec();
        if *what == "non-utf8" {
            // A Latin-1 byte where UTF-8 is expected.
            let at = bytes.iter().position(|&b| b == 0xc3).unwrap();
            bytes.splice(at..at + 2, [0xe9u8]);
        }
        let path = dir.path().join(format!("{}.csv", what.replace(' ', "_")));
        std::fs::write(&path, &bytes).unwrap();
        let (fast, general) = both(&path, b',');
        match (fast, general) {
            (Ok(f), Ok(g)) => assert_same(&f, &g, what),
            (Err(f), Err(g)) => assert_eq!(f, g, "{what}"),
            (f, g) => panic!("{what}: the two readers disagree: {f:?} against {g:?}"),
        }
    }
}

#[test]
fn a_named_file_with_the_wrong_checksum_is_refused_by_the_loader() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "census.csv", "a,b\n1,2\n3,4\n");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_microagg"))
        .args(["run", "--data", "census", "--k", "2", "--method", "mdav"])
        .env("MICROAGG_DATA", dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("sha256")
            && err.contains("census.csv")
            && err.contains("not the reference file"),
        "{err}"
    );
}
