//! `run` frees the original values (`Instance::drop_raw`) when nothing reads them after
//! loading (`src/run/cli/run.rs`): complete data, no released file, no weights, and no stage in
//! `pipeline::RAW_READERS`. Here every registered method (an initializer alone, a refiner
//! after mdav) runs on the same small instance with and without its raw copy: the labels
//! (or the error) must be the same, and a method that reads `raw` and is not listed in
//! `RAW_READERS` fails here (out-of-bounds read on the empty copy), naming itself.

use microagg::method::MethodKind;
use microagg::pipeline::{Pipeline, RAW_READERS};
use std::sync::atomic::AtomicBool;

fn labels_of(spec: &str, inst: &microagg::data::Instance) -> Result<Vec<usize>, String> {
    let never = AtomicBool::new(false);
    let pipeline = Pipeline::parse(spec, &[]).map_err(|e| e.to_string())?;
    pipeline
        .run_with(inst, 3, 7, None, Some(20), &never)
        .map(|out| out.partition.canonical_labels())
        .map_err(|e| e.to_string())
}

#[test]
fn every_method_outside_raw_readers_gives_the_same_labels_without_the_raw_copy() {
    let full =
        microagg::data::load("gauss:n=60,d=3,clusters=4,seed=5", &Default::default()).unwrap();
    let mut bare =
        microagg::data::load("gauss:n=60,d=3,clusters=4,seed=5", &Default::default()).unwrap();
    bare.drop_raw();
    assert!(bare.raw.is_empty() && bare.missing_record(None).is_none());
    let mut checked = 0;
    for m in microagg::registry::registry() {
        if RAW_READERS.contains(&m.name) {
            continue;
        }
        let spec = match m.kind() {
            MethodKind::Initializer => m.name.to_string(),
            MethodKind::Refiner => format!("mdav+{}", m.name),
        };
        let with = labels_of(&spec, &full);
        let without = std::panic::catch_unwind(|| labels_of(&spec, &bare)).unwrap_or_else(|_| {
            panic!(
                "'{spec}' panicked without the raw copy: it reads Instance::raw; list it in \
                 pipeline::RAW_READERS"
            )
        });
        assert_eq!(with, without, "{spec}");
        checked += 1;
    }
    assert!(checked > 40, "only {checked} methods");
}

/// The list is not empty for nothing: ps-meansort with `scale = "raw"` does read the copy.
#[test]
fn ps_meansort_on_raw_values_needs_the_copy() {
    let p = Pipeline::parse("ps-meansort", &["ps-meansort.scale=raw".to_string()]).unwrap();
    assert!(p.reads_raw());
    assert!(!Pipeline::parse("mdav+descent", &[]).unwrap().reads_raw());
    // The one rule `run` and the split runs share: a released file, weights or a raw
    // reader each keep the copy.
    let plain = Pipeline::parse("mdav+descent", &[]).unwrap();
    assert!(plain.reads_only_z(false, false));
    assert!(!plain.reads_only_z(true, false));
    assert!(!plain.reads_only_z(false, true));
    assert!(!p.reads_only_z(false, false));
    let mut bare =
        microagg::data::load("gauss:n=60,d=3,clusters=4,seed=5", &Default::default()).unwrap();
    bare.drop_raw();
    let never = AtomicBool::new(false);
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        p.run_with(&bare, 3, 7, None, None, &never).is_ok()
    }));
    assert!(
        r.is_err(),
        "ps-meansort scale=raw ran without its raw values"
    );
}

/// Loading without the raw copy (`RawCopy::Discard`, what `run` does when nothing reads
/// the original values) standardises in place: the same z-scores, means, deviations and
/// SST bit for bit, n and d right, an empty `raw`, the same errors; a load that does not
/// ask for it keeps the copy.
#[test]
fn loading_without_the_raw_copy_gives_the_same_z_scores_and_errors() {
    use microagg::data::{LoadOptions, RawCopy};
    let without_raw = |spec: &str| {
        let options = LoadOptions {
            raw: RawCopy::Discard,
            ..Default::default()
        };
        microagg::data::load_missing(spec, &Default::default(), b',', &[], options).map(|l| l.0)
    };
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("a.csv");
    let mut text = String::from("a,b,c\n");
    for i in 0..50 {
        text += &format!("{},{},{}\n", i % 7, (i * 13) % 11, 0.1 * i as f64);
    }
    std::fs::write(&csv, &text).unwrap();
    for spec in [
        "gauss:n=500,d=4,clusters=3,seed=2",
        csv.to_str().unwrap(),
        "sim2:seed=3",
    ] {
        let full = microagg::data::load(spec, &Default::default()).unwrap();
        let bare = without_raw(spec).unwrap();
        assert!(
            bare.raw.is_empty() && full.raw.len() == full.n * full.d,
            "{spec}"
        );
        assert_eq!(
            (bare.n, bare.d, &bare.sha256),
            (full.n, full.d, &full.sha256)
        );
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&bare.z), bits(&full.z), "{spec}");
        assert_eq!(bits(&bare.mean), bits(&full.mean));
        assert_eq!(bits(&bare.std), bits(&full.std));
        assert_eq!(bare.sst.to_bits(), full.sst.to_bits());
    }
    // The default load keeps the copy.
    assert!(
        !microagg::data::load(csv.to_str().unwrap(), &Default::default())
            .unwrap()
            .raw
            .is_empty()
    );
    std::fs::write(&csv, "a,b\n1,2\n1,3\n1,4\n").unwrap();
    let e1 = microagg::data::load(csv.to_str().unwrap(), &Default::default()).unwrap_err();
    let e2 = without_raw(csv.to_str().unwrap()).unwrap_err();
    assert_eq!(e1.to_string(), e2.to_string());
    assert!(e1.to_string().contains("constant column"), "{e1}");
}
