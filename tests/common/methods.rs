//! Running a method on an instance and comparing its result with a published table.

use microagg::data::Instance;

/// Run a single-stage pipeline and return (sse, labels).
pub fn run_method(inst: &Instance, method: &str, k: usize, seed: u64) -> (f64, Vec<usize>) {
    let never = std::sync::atomic::AtomicBool::new(false);
    let out = microagg::pipeline::Pipeline::parse(method, &[])
        .expect("known method")
        .run(inst, k, seed, None, &never)
        .unwrap_or_else(|e| panic!("{method} on {} k={k}: {e}", inst.name));
    (out.partition.sse(), out.partition.labels().to_vec())
}

/// Run `method` with `--param` style arguments: (SSE, labels), or the error's message.
pub fn run_with_params(
    inst: &Instance,
    method: &str,
    params: &[&str],
    k: usize,
    seed: u64,
) -> Result<(f64, Vec<usize>), String> {
    let never = std::sync::atomic::AtomicBool::new(false);
    let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    let out = microagg::pipeline::Pipeline::parse(method, &params)
        .and_then(|p| p.run(inst, k, seed, None, &never))
        .map_err(|e| e.to_string())?;
    Ok((out.partition.sse(), out.partition.labels().to_vec()))
}

/// Run the pipeline `spec` with `--param` style arguments, and a time limit when `limit` is
/// set: its partition.
pub fn run_pipeline(
    inst: &Instance,
    spec: &str,
    params: &[&str],
    k: usize,
    seed: u64,
    limit: Option<f64>,
) -> microagg::partition::Partition {
    let never = std::sync::atomic::AtomicBool::new(false);
    let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    microagg::pipeline::Pipeline::parse(spec, &params)
        .unwrap()
        .run(inst, k, seed, limit, &never)
        .unwrap()
        .partition
}

/// Runs the refining pipeline `spec` twice with the same seed and checks its partition:
/// feasible, no worse than the input's SSE `input_sse` (up to 1e-12 relative) and the same
/// both times; returns it. `run` names the case in the messages.
pub fn assert_refined_twice(
    run: &str,
    inst: &Instance,
    spec: &str,
    params: &[&str],
    k: usize,
    seed: u64,
    input_sse: f64,
) -> microagg::partition::Partition {
    let a = run_pipeline(inst, spec, params, k, seed, None);
    let b = run_pipeline(inst, spec, params, k, seed, None);
    assert!(a.is_feasible(k), "{run}: infeasible");
    assert!(
        a.sse() <= input_sse * (1.0 + 1e-12),
        "{run}: {} > input {input_sse}",
        a.sse()
    );
    assert_eq!(a.labels(), b.labels(), "{run}: not reproducible");
    a
}

/// Groups as sorted lists of record ids, sorted, from labels.
pub fn groups(labels: &[usize]) -> Vec<Vec<usize>> {
    let mut by_label: Vec<Vec<usize>> = vec![Vec::new(); labels.iter().max().map_or(0, |m| m + 1)];
    for (i, &l) in labels.iter().enumerate() {
        by_label[l].push(i);
    }
    let mut gs: Vec<Vec<usize>> = by_label.into_iter().filter(|g| !g.is_empty()).collect();
    gs.sort();
    gs
}

/// The group sizes of `labels`, in the order of [`groups`].
pub fn group_sizes(labels: &[usize]) -> Vec<usize> {
    groups(labels).iter().map(Vec::len).collect()
}

/// Every group of `labels` holds k to 2k - 1 records (`run` names the run in the message).
pub fn assert_sizes_k_to_2k_minus_1(labels: &[usize], k: usize, run: &str) {
    let sizes = group_sizes(labels);
    assert!(
        sizes.iter().all(|&s| s >= k && s < 2 * k),
        "{run}: {sizes:?}"
    );
}

/// Chettri & Borah (2012) Table 1 as printed (tests/fixtures/chettri_borah_table1.csv): the
/// rows of `methods` (workbench method names), each data set in turn, as (method, data set,
/// SSE for k = 3, 4, 5, 10).
pub fn table1_rows(methods: &[&str]) -> Vec<(&'static str, &'static str, [f64; 4])> {
    let csv = include_str!("../fixtures/chettri_borah_table1.csv");
    let rows: Vec<_> = (csv.lines().skip(1))
        .map(|line| {
            let fields: Vec<&'static str> = line.split(',').collect();
            let sse = |i: usize| fields[2 + i].parse::<f64>().expect("an SSE");
            (fields[0], fields[1], [sse(0), sse(1), sse(2), sse(3)])
        })
        .filter(|(method, _, _)| methods.contains(method))
        .collect();
    assert_eq!(rows.len(), 3 * methods.len(), "three data sets per method");
    rows
}

/// Chettri & Borah (2012) Table 1 prints SSE with SST = n * d (population standard
/// deviations): the instance's SST must agree before its values are compared.
pub fn assert_table1_sst(inst: &Instance) {
    let nd = (inst.n * inst.d) as f64;
    assert!(
        (inst.sst - nd).abs() < 1e-9 * nd,
        "SST {} != n*d {nd}",
        inst.sst
    );
}

/// An SSE within `tol` of the value Table 1 prints for (`method`, `id`, `k`).
pub fn assert_table1_sse(method: &str, id: &str, k: usize, sse: f64, want: f64, tol: f64) {
    assert!(
        (sse - want).abs() <= tol,
        "{method} {id} k={k}: SSE {sse:.4} but Table 1 prints {want} (tolerance {tol:.4})"
    );
}
