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
