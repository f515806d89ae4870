//! `microagg bench --peer-sdcmicro`: the partition comparison against brute-force
//! constructions, and the side-by-side run against a stand-in peer (a shell script speaking
//! the driver's protocol: `BIN data.csv K REPS LABELS`, `n=.. cpu_s=.. IL=..` lines, one
//! label per row), since sdcMicro's source is not in the project.

use crate::common;

use microagg::bench::{compare_partitions, Agreement};
use std::path::Path;

/// Six records in two clusters, records 0 and 3 identical.
fn rows_with_a_duplicate() -> Vec<Vec<f64>> {
    vec![
        vec![0.0, 0.0],
        vec![0.1, 0.0],
        vec![0.0, 0.2],
        vec![0.0, 0.0],
        vec![0.3, 0.1],
        vec![0.2, 0.3],
    ]
}

#[test]
fn partitions_compare_up_to_identical_records_and_merged_equal_centroids() {
    let inst = common::from_rows(&rows_with_a_duplicate());
    let ours = [0, 0, 0, 1, 1, 1];
    // Other label values, same groups.
    assert_eq!(
        compare_partitions(&inst, &ours, &[7, 7, 7, 2, 2, 2]),
        Agreement::Same
    );
    // Records 0 and 3 (identical) trade groups: the released file is the same up to order.
    assert_eq!(
        compare_partitions(&inst, &ours, &[1, 0, 0, 0, 1, 1]),
        Agreement::SameRelease
    );
    // Records 1 and 4 (not identical) trade groups: all six records (the members of both
    // groups) get another centroid.
    match compare_partitions(&inst, &ours, &[0, 1, 0, 1, 0, 1]) {
        Agreement::Differs(m) => assert_eq!(m, 6, "every record's centroid moved"),
        other => panic!("a swap of distinct records compared as {other:?}"),
    }
    // A wrong length never compares equal.
    assert!(matches!(
        compare_partitions(&inst, &ours, &[0, 0, 0]),
        Agreement::Differs(_)
    ));

    // Two groups with equal centroids (two copies of one group), merged by the peer.
    let rows = vec![
        vec![1.0, 2.0],
        vec![3.0, 5.0],
        vec![1.0, 2.0],
        vec![3.0, 5.0],
        vec![9.0, 9.0],
        vec![8.0, 9.5],
    ];
    let inst = common::from_rows(&rows);
    let ours = [0, 0, 1, 1, 2, 2];
    assert_eq!(
        compare_partitions(&inst, &ours, &[5, 5, 5, 5, 6, 6]),
        Agreement::SameRelease
    );
    // Merging groups whose centroids differ is not the same release.
    assert!(matches!(
        compare_partitions(&inst, &ours, &[5, 5, 6, 6, 5, 5]),
        Agreement::Differs(_)
    ));
}

/// A stand-in peer: prints `n=.. cpu_s=0.5 IL=IL` per call and copies `labels` to the
/// fourth argument; `exit` != 0 fails after printing to stderr.
fn fake_peer(dir: &Path, labels: &Path, il: &str, exit: i32) -> std::path::PathBuf {
    let script = format!(
        "#!/bin/sh\n\
         test -s \"$1\" || {{ echo 'no csv' >&2; exit 3; }}\n\
         if [ {exit} -ne 0 ]; then echo 'peer broke' >&2; exit {exit}; fi\n\
         i=0; while [ $i -lt \"$3\" ]; do echo \"n=0 d=0 k=$2 call_s=0.5 cpu_s=0.5 IL={il}\"; i=$((i+1)); done\n\
         cp '{}' \"$4\"\n",
        labels.display()
    );
    let path = common::write_file(dir, &format!("peer{exit}.sh"), &script);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The case line of a side-by-side run: (our call s, peer call s, ratio, partition text).
fn case_line(out: &str) -> (f64, f64, f64, String) {
    let line = out
        .lines()
        .find(|l| l.starts_with("gauss-10k"))
        .unwrap_or_else(|| panic!("no case line in {out}"));
    let f: Vec<&str> = line.split_whitespace().collect();
    let num = |i: usize| f[i].parse::<f64>().unwrap();
    (num(2), num(4), num(5), f[9..].join(" "))
}

#[test]
fn side_by_side_prints_ratios_and_checks_the_partition() {
    let dir = tempfile::tempdir().unwrap();
    let data = "gauss:n=10000,d=10,clusters=5,seed=1";
    let ours = dir.path().join("ours.labels");
    common::write_mdav_labels(data, "5", ours.to_str().unwrap());
    let bench = |peer: &Path| {
        common::cli(&[
            "bench",
            "--peer-sdcmicro",
            peer.to_str().unwrap(),
            "--cases",
            "gauss-10k",
            "--methods",
            "mdav",
            "--reps",
            "2",
            "--rounds",
            "1",
        ])
    };

    // A peer that returns our own partition: same groups, ratio = 0.5 / our call.
    let out = bench(&fake_peer(dir.path(), &ours, "12.6822147204", 0));
    assert!(out.status.success(), "{}", common::stderr(&out));
    let (call, peer_call, ratio, partition) = case_line(&common::stdout(&out));
    assert_eq!(peer_call, 0.5);
    assert!(call > 0.0 && call < 0.5, "our call {call}");
    let want = 0.5 / call;
    assert!(
        (ratio - want).abs() <= 0.05 + 0.01 * want,
        "ratio {ratio}, 0.5 / {call} = {want}"
    );
    assert_eq!(partition, "same groups");

    // Two records of different groups exchanged: reported as different.
    let mut labels: Vec<String> = std::fs::read_to_string(&ours)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let other = (1..labels.len()).find(|&i| labels[i] != labels[0]).unwrap();
    labels.swap(0, other);
    let swapped = common::write_file(dir.path(), "swapped.labels", &(labels.join("\n") + "\n"));
    let out = bench(&fake_peer(dir.path(), &swapped, "12.7", 0));
    assert!(out.status.success(), "{}", common::stderr(&out));
    let (_, _, _, partition) = case_line(&common::stdout(&out));
    assert!(partition.starts_with("differs: "), "{partition}");

    // A failing peer is an error that names it and shows its message.
    let broken = fake_peer(dir.path(), &ours, "1", 4);
    let out = bench(&broken);
    assert!(!out.status.success());
    let err = common::stderr(&out);
    assert!(
        err.contains(&broken.display().to_string()) && err.contains("peer broke"),
        "{err}"
    );

    // Labels of the wrong length are refused, naming the count.
    let short = common::write_file(dir.path(), "short.labels", "0\n1\n");
    let out = bench(&fake_peer(dir.path(), &short, "1", 0));
    assert!(!out.status.success());
    assert!(
        common::stderr(&out).contains("2 labels for 10000 records"),
        "{}",
        common::stderr(&out)
    );
}
