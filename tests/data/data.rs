//! Data loading: standardisation, column selection, manifest checksums, generators.

use crate::common;
use microagg::data::{self, csv_file::parse_csv, ColumnSelection};

#[test]
fn standardisation_gives_zero_mean_unit_population_variance_and_sst_n_times_d() {
    let inst = parse_csv(
        b"a,b,c\n1,10,-3\n2,30,4\n4,20,0\n9,0,1\n",
        "t.csv",
        "t",
        &ColumnSelection::All,
    )
    .unwrap();
    assert_eq!((inst.n, inst.d), (4, 3));
    for j in 0..3 {
        let col: Vec<f64> = (0..4).map(|i| inst.row(i)[j]).collect();
        let mean = col.iter().sum::<f64>() / 4.0;
        let var = col.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 4.0;
        assert!(mean.abs() < 1e-12 && (var - 1.0).abs() < 1e-12);
    }
    assert!((inst.sst - 12.0).abs() < 1e-12);
}

#[test]
fn columns_by_name_and_1_based_position_in_the_given_order() {
    let text = b"a,b,c\n1,10,-3\n2,30,4\n4,20,0\n";
    let by_name = parse_csv(text, "t.csv", "t", &ColumnSelection::parse("c,a")).unwrap();
    assert_eq!(by_name.columns, vec!["c", "a"]);
    assert_eq!(by_name.raw, vec![-3.0, 1.0, 4.0, 2.0, 0.0, 4.0]);
    let by_pos = parse_csv(text, "t.csv", "t", &ColumnSelection::parse("3,1")).unwrap();
    assert_eq!(by_pos.raw, by_name.raw);
    let err = parse_csv(text, "t.csv", "t", &ColumnSelection::parse("4")).unwrap_err();
    assert!(err.to_string().contains("out of range"), "{err}");
    // A text column can be left out by selecting the numeric ones.
    let mixed = b"id,name,x\n1,\"Smith, J\",3\n2,Doe,5\n3,Roe,4\n";
    let ok = parse_csv(mixed, "m.csv", "m", &ColumnSelection::parse("id,x")).unwrap();
    assert_eq!(ok.d, 2);
    let err = parse_csv(mixed, "m.csv", "m", &ColumnSelection::All).unwrap_err();
    assert!(err.to_string().contains("column 'name' (2)"), "{err}");
}

#[test]
fn named_instances_resolve_with_their_checksums() {
    for (id, n, d) in [
        ("tarragona", 834, 13),
        ("census", 1080, 13),
        ("eia", 4092, 11),
    ] {
        let Some(inst) = common::casc(id) else {
            continue;
        };
        assert_eq!((inst.n, inst.d), (n, d), "{id}");
        assert_eq!(inst.name, id);
    }
}

#[test]
fn a_file_with_the_wrong_checksum_is_rejected_not_used() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("census.csv"), "a,b\n1,2\n3,4\n").unwrap();
    // The impostor's folder is searched first (as MICROAGG_DATA would be): it must be refused,
    // not skipped in favour of a later folder.
    let entry = data::manifest::Manifest::embedded()
        .unwrap()
        .find("census")
        .unwrap()
        .clone();
    let mut dirs = vec![dir.path().to_path_buf()];
    dirs.extend(data::manifest::InstanceEntry::search_dirs());
    let err = entry.resolve_in(&dirs).unwrap_err().to_string();
    common::assert_contains_all(&err, &["sha256", "census.csv"]);
}

/// The loader hashes a named file while parsing it and checks the digest afterwards: a
/// parseable impostor is still refused, through the command line.
#[test]
fn a_named_file_with_the_wrong_checksum_is_refused_by_the_loader() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("census.csv"), "a,b\n1,2\n3,4\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_microagg"))
        .args(["run", "--data", "census", "--k", "2", "--method", "mdav"])
        .env("MICROAGG_DATA", dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    common::assert_contains_all(&err, &["sha256", "census.csv", "not the reference file"]);
}

#[test]
fn generators_are_seeded_and_match_their_specs() {
    let a = common::synthetic("gauss:n=103,d=4,clusters=5,seed=2");
    let b = common::synthetic("gauss:n=103,d=4,clusters=5,seed=2");
    let c = common::synthetic("gauss:n=103,d=4,clusters=5,seed=3");
    assert_eq!((a.n, a.d), (103, 4));
    assert_eq!(a.raw, b.raw);
    assert_eq!(a.sha256, b.sha256);
    assert_ne!(a.raw, c.raw);
    let s1 = common::synthetic("sim1:seed=1");
    assert_eq!((s1.n, s1.d), (100, 10));
    assert!(s1.raw.iter().all(|v| (-1000.0..1000.0).contains(v)));
    for spec in ["sim2:seed=1", "sim3:seed=7"] {
        let s = common::synthetic(spec);
        assert_eq!(s.n, 100);
        assert!((4..=8).contains(&s.d), "{spec}: d = {}", s.d);
    }
}

#[test]
fn the_heavy_tailed_generator_draws_pareto_tails_of_both_signs() {
    let h = common::synthetic("heavy:n=4000,d=2,seed=5");
    assert_eq!((h.n, h.d), (4000, 2));
    assert_eq!(h.raw, common::synthetic("heavy:n=4000,d=2,seed=5").raw);
    assert_ne!(h.raw, common::synthetic("heavy:n=4000,d=2,seed=6").raw);
    // P(|X| > t) = (1 + t)^-2: about 1/4 beyond 1, 1/100 beyond 9; both signs about half.
    let share = |t: f64| h.raw.iter().filter(|v| v.abs() > t).count() as f64 / 8000.0;
    assert!((share(1.0) - 0.25).abs() < 0.03, "{}", share(1.0));
    assert!((share(9.0) - 0.01).abs() < 0.006, "{}", share(9.0));
    let positive = h.raw.iter().filter(|v| **v > 0.0).count() as f64 / 8000.0;
    assert!((positive - 0.5).abs() < 0.03, "{positive}");
    for (bad, says) in [
        ("heavy:n=10", "needs 'd=...'"),
        (
            "heavy:n=10,d=2,tail=3",
            "unknown generator parameter 'tail'",
        ),
        ("heavy:n=0,d=2", "need n >= 1"),
    ] {
        let e = data::load(bad, &ColumnSelection::All).unwrap_err();
        assert!(e.to_string().contains(says), "{bad}: {e}");
    }
}

#[test]
fn a_streamed_file_loads_as_its_bytes_parse_with_the_checksum_of_its_bytes() {
    // Larger than the loader's 64 KiB read buffer, with a hint-free header and CRLF ends.
    let mut text = String::from("a,b,c\r\n");
    for i in 0..20_000u64 {
        text += &format!("{},{}.5,{}\r\n", i % 97, (i * 7919) % 1000, i % 13);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.csv");
    std::fs::write(&path, &text).unwrap();
    let streamed = data::csv_file::load_csv(&path, &ColumnSelection::All).unwrap();
    let parsed = parse_csv(text.as_bytes(), "big.csv", "big", &ColumnSelection::All).unwrap();
    assert_eq!((streamed.n, streamed.d), (20_000, 3));
    assert_eq!(streamed.raw, parsed.raw);
    assert_eq!(streamed.z, parsed.z);
    assert_eq!(streamed.sha256, data::instance::sha256_hex(text.as_bytes()));
    assert_eq!(streamed.sha256, parsed.sha256);
    // Only whitespace, however long, is an empty file.
    std::fs::write(&path, " \n".repeat(70_000)).unwrap();
    let e = data::csv_file::load_csv(&path, &ColumnSelection::All).unwrap_err();
    assert!(e.to_string().contains("empty file"), "{e}");
}
